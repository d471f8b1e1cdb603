// The outbound HTTP client every call out of the instance goes through: the address rules (unit), and
// real servers on loopback for redirects, size and time limits. 127.0.0.1 is allowed here; 127.0.0.2
// stands for an internal address that must never be reached.
import {
  createAddressPolicy,
  createOutboundHttp,
  guardedFetch,
  isPublicAddress,
  parseAddressList,
} from '@tributary/adapters';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, test } from 'vitest';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loose = Record<string, any>;
const withCode = (code: string) => (e: Loose) => {
  assert.equal(e.code, code, e.message);
  return true;
};

describe('the address rules', () => {
  test('given special-purpose IPv4 and IPv6 addresses, then none is public; ordinary unicast addresses are', () => {
    for (const a of [
      '0.0.0.0',
      '10.1.2.3',
      '100.64.0.1',
      '127.0.0.1',
      '127.255.255.254',
      '169.254.169.254',
      '172.16.0.1',
      '172.31.255.255',
      '192.0.0.8',
      '192.0.2.1',
      '192.168.1.1',
      '198.18.0.1',
      '224.0.0.1',
      '255.255.255.255',
      '::',
      '::1',
      '::7f00:1', // IPv4-compatible 127.0.0.1
      '::8.8.8.8', // IPv4-compatible: deprecated, never public
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '0:0:0:0:0:ffff:a9fe:a9fe', // mapped 169.254.169.254
      '::ffff:10.0.0.1',
      '64:ff9b::a00:1',
      '2001:db8::1',
      '2002:7f00:1::',
      'fc00::1',
      'fd12:3456::1',
      'fe80::1',
      'ff02::1',
      'not-an-address',
    ])
      assert.equal(isPublicAddress(a), false, a);
    for (const a of ['93.184.216.34', '8.8.8.8', '172.32.0.1', '::ffff:8.8.8.8', '2606:4700::1111'])
      assert.equal(isPublicAddress(a), true, a);
  });

  test('given an allow list, then exactly those addresses join the public ones, mapped IPv6 included', () => {
    const policy = createAddressPolicy('127.0.0.1, 10.0.0.0/8, fd00::/8');
    for (const a of ['127.0.0.1', '::ffff:127.0.0.1', '10.9.8.7', 'fd00::5', '93.184.216.34'])
      assert.equal(policy.allows(a), true, a);
    for (const a of ['127.0.0.2', '::1', '169.254.169.254', '192.168.0.1', 'fe80::1'])
      assert.equal(policy.allows(a), false, a);
    for (const bad of ['localhost', '10.0.0.0/33', '::1/129', '1.2.3.4/x'])
      assert.throws(() => parseAddressList(bad), /not an IP address or prefix/, bad);
  });

  test('given hosts written in decimal, octal, hex or as IPv6 literals, then they are judged as the address they name, without a lookup', async () => {
    const outbound = createOutboundHttp({
      resolve: () => assert.fail('an IP literal must not be resolved'),
    });
    for (const url of [
      'http://2130706433/', // 127.0.0.1
      'http://0177.0.0.1/',
      'http://0x7f.1/',
      'http://017700000001/',
      'http://0xa9fea9fe/', // 169.254.169.254
      'http://[::ffff:127.0.0.1]/',
      'http://[0:0:0:0:0:ffff:7f00:1]/',
      'http://[::1]/',
      'http://[fe80::1]/',
    ])
      await assert.rejects(outbound.checkUrl(url), withCode('outbound.unsafe_url'), url);
    assert.equal((await outbound.checkUrl('https://93.184.216.34/x')).host, '93.184.216.34');
  });

  test('given names, then every address they resolve to must be allowed; other schemes and credentials are refused', async () => {
    const outbound = createOutboundHttp({
      resolve: async (host) =>
        ({
          'rebind.example': ['93.184.216.34', '10.0.0.5'],
          'ok.example': ['93.184.216.34', '2606:4700::1111'],
          'mapped.example': ['::ffff:169.254.169.254'],
        })[host] ?? [],
    });
    await outbound.checkUrl('https://ok.example/path');
    await assert.rejects(outbound.checkUrl('https://rebind.example'), withCode('outbound.unsafe_url'));
    await assert.rejects(outbound.checkUrl('https://mapped.example'), withCode('outbound.unsafe_url'));
    await assert.rejects(
      outbound.checkUrl('https://nowhere.example'),
      withCode('outbound.unresolvable_host'),
    );
    for (const url of ['ftp://ok.example/', 'file:///etc/passwd', 'javascript:alert(1)', 'not a url'])
      await assert.rejects(outbound.checkUrl(url), withCode('outbound.bad_url'), url);
    await assert.rejects(outbound.checkUrl('https://user:pw@ok.example/'), withCode('outbound.bad_url'));
  });
});

interface Server {
  url: string;
  requests: { method: string; path: string; headers: http.IncomingHttpHeaders; body: string }[];
  close(): Promise<void>;
}

async function serve(
  host: string,
  answer: (req: http.IncomingMessage, res: http.ServerResponse) => void,
): Promise<Server> {
  const requests: Server['requests'] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push({
        method: req.method!,
        path: req.url!,
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
      });
      answer(req, res);
    });
  });
  await new Promise<void>((r) => server.listen(0, host, r));
  return {
    url: `http://${host}:${(server.address() as AddressInfo).port}`,
    requests,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

describe('calls to real servers', () => {
  const outbound = createOutboundHttp({ allowedAddresses: '127.0.0.1', timeoutMs: 2000 });
  let internal: Server; // 127.0.0.2: not allowed
  let target: Server; // 127.0.0.1: allowed, another origin than `redirector`
  let redirector: Server;
  let big: Server;
  let endless: Server;
  let hanging: Server;
  let trickle: Server; // one line now, the rest after 400 ms

  beforeAll(async () => {
    internal = await serve('127.0.0.2', (_req, res) => res.end('internal answer'));
    target = await serve('127.0.0.1', (_req, res) => res.end('target answer'));
    redirector = await serve('127.0.0.1', (req, res) => {
      const to = new URL(req.url!, 'http://x').searchParams.get('to') ?? '/';
      res.writeHead(Number(new URL(req.url!, 'http://x').searchParams.get('status') ?? 302), {
        location: to,
      });
      res.end();
    });
    big = await serve('127.0.0.1', (_req, res) => res.end('x'.repeat(64 * 1024)));
    // No Content-Length: the limit must hold while streaming.
    endless = await serve('127.0.0.1', (_req, res) => {
      const chunk = Buffer.alloc(16 * 1024, 'y');
      const pump = () => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once('drain', pump);
      };
      pump();
    });
    hanging = await serve('127.0.0.1', () => undefined);
    trickle = await serve('127.0.0.1', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'x-test': 'yes' });
      res.write('data: first\n\n');
      setTimeout(() => res.end('data: last\n\n'), 400);
    });
  });
  afterAll(async () => {
    await Promise.all([internal, target, redirector, big, endless, hanging, trickle].map((s) => s?.close()));
  });

  test('given an allowed server, then its answer comes back; the internal address is refused before any connection', async () => {
    const r = await outbound.request(`${target.url}/hello`);
    assert.equal(r.status, 200);
    assert.equal(r.text(), 'target answer');
    await assert.rejects(outbound.request(`${internal.url}/`), withCode('outbound.unsafe_url'));
    assert.deepEqual(internal.requests, []);
  });

  test('given a name that resolves to a forbidden address when connecting, then the connection is refused (the checked address is the one used)', async () => {
    // The first resolution (a check) says 127.0.0.1, the next (the connection) 127.0.0.2: DNS rebinding.
    let calls = 0;
    const rebinding = createOutboundHttp({
      allowedAddresses: '127.0.0.1',
      resolve: async () => (calls++ === 0 ? ['127.0.0.1'] : ['127.0.0.2']),
    });
    const port = new URL(internal.url).port;
    await rebinding.checkUrl(`http://rebind.test:${port}/`);
    await assert.rejects(rebinding.request(`http://rebind.test:${port}/`), withCode('outbound.unsafe_url'));
    assert.deepEqual(internal.requests, []);
  });

  test('given a redirect, then it is refused by default — a signed POST is never re-sent — and nothing reaches the target', async () => {
    const targetBefore = target.requests.length;
    for (const status of [301, 302, 303, 307, 308]) {
      const to = encodeURIComponent(`${internal.url}/steal`);
      await assert.rejects(
        outbound.request(`${redirector.url}/?status=${status}&to=${to}`, {
          method: 'POST',
          headers: { signature: 'sig1=:abc:', authorization: 'Bearer secret' },
          body: '{"signed":true}',
        }),
        (e: Loose) => withCode('outbound.redirect_refused')(e) && !String(e.message).includes('127.0.0.2'),
        String(status),
      );
    }
    // Even with redirects allowed, a request with a body does not follow.
    const to = encodeURIComponent(`${target.url}/moved`);
    await assert.rejects(
      outbound.request(`${redirector.url}/?status=307&to=${to}`, {
        method: 'POST',
        body: '{}',
        maxRedirects: 3,
      }),
      withCode('outbound.redirect_refused'),
    );
    assert.deepEqual(internal.requests, []);
    assert.equal(target.requests.length, targetBefore);
  });

  test('given a caller that allows redirects, then each hop is checked, credentials stay with their origin, and the hops are bounded', async () => {
    const toTarget = encodeURIComponent(`${target.url}/moved`);
    const r = await outbound.request(`${redirector.url}/?to=${toTarget}`, {
      headers: { authorization: 'Bearer secret', accept: 'text/plain' },
      maxRedirects: 2,
    });
    assert.equal(r.text(), 'target answer');
    assert.equal(r.url, `${target.url}/moved`);
    assert.equal(target.requests.at(-1)!.headers.authorization, undefined);
    assert.equal(target.requests.at(-1)!.headers.accept, 'text/plain');

    const toInternal = encodeURIComponent(`${internal.url}/`);
    await assert.rejects(
      outbound.request(`${redirector.url}/?to=${toInternal}`, { maxRedirects: 2 }),
      withCode('outbound.unsafe_url'),
    );
    const loop = encodeURIComponent(`/?to=${encodeURIComponent('/?to=/')}`);
    await assert.rejects(
      outbound.request(`${redirector.url}/?to=${loop}`, { maxRedirects: 2 }),
      withCode('outbound.too_many_redirects'),
    );
    assert.deepEqual(internal.requests, []);
  });

  test('given an answer over the size limit, declared or streamed, then outbound.too_large', async () => {
    await assert.rejects(
      outbound.request(big.url, { maxResponseBytes: 1024 }),
      withCode('outbound.too_large'),
    );
    const started = Date.now();
    await assert.rejects(
      outbound.request(endless.url, { maxResponseBytes: 256 * 1024 }),
      withCode('outbound.too_large'),
    );
    assert.ok(Date.now() - started < 2000, 'the stream is cut off at the limit, not read to the end');
  });

  test('given a server that never answers, then outbound.timeout at the total limit', async () => {
    const started = Date.now();
    await assert.rejects(outbound.request(hanging.url, { timeoutMs: 300 }), withCode('outbound.timeout'));
    const took = Date.now() - started;
    assert.ok(took >= 290 && took < 1500, `took ${took} ms`);
  });

  test('given a streamed answer, then open hands the head and first bytes on before the end, under the same limits', async () => {
    const started = Date.now();
    const answer = await outbound.open(trickle.url);
    assert.equal(answer.status, 200);
    assert.equal(answer.headers()['x-test'], 'yes');
    const chunks: { at: number; text: string }[] = [];
    for await (const chunk of answer.body) chunks.push({ at: Date.now() - started, text: String(chunk) });
    assert.equal(chunks.map((c) => c.text).join(''), 'data: first\n\ndata: last\n\n');
    assert.ok(chunks[0]!.at < 300, `first bytes after ${chunks[0]!.at} ms`);
    // A limit broken mid-body errors the stream.
    const timed = await outbound.open(trickle.url, { timeoutMs: 200 });
    await assert.rejects(async () => {
      for await (const _ of timed.body);
    }, withCode('outbound.timeout'));
    const large = await outbound.open(endless.url, { maxResponseBytes: 64 * 1024 });
    await assert.rejects(async () => {
      for await (const _ of large.body);
    }, withCode('outbound.too_large'));
  });

  test('given an abort signal, then the call ends at once with its reason, before or during the body', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('stop')), 100);
    await assert.rejects(outbound.request(hanging.url, { signal: controller.signal }), /stop/);
    const mid = new AbortController();
    const answer = await outbound.open(trickle.url, { signal: mid.signal });
    mid.abort(new Error('enough'));
    await assert.rejects(async () => {
      for await (const _ of answer.body);
    }, /enough/);
    await assert.rejects(
      outbound.request(target.url, { signal: AbortSignal.abort(new Error('before')) }),
      /before/,
    );
  });

  test('given guardedFetch, then a fetch-shaped call goes through the same checks and streams its body', async () => {
    const fetch = guardedFetch(outbound);
    const response = await fetch(`${target.url}/f`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"a":1}',
    });
    assert.equal(response.status, 200);
    assert.equal(await response.text(), 'target answer');
    assert.equal(target.requests.at(-1)!.method, 'POST');
    await assert.rejects(fetch(`${internal.url}/`), withCode('outbound.unsafe_url'));
    assert.deepEqual(internal.requests, []);
    const started = Date.now();
    const reader = (await fetch(trickle.url)).body!.getReader();
    const first = await reader.read();
    assert.ok(Date.now() - started < 300 && !first.done, 'the first chunk before the end of the answer');
    await reader.cancel();
  });
  test('given a pooled connection the server drops before answering, then an idempotent call goes again once on a connection of its own; a POST is not, nor a fresh connection that drops', async () => {
    // The server answers the first request on each connection and drops the second, as a server does
    // that closes an idle kept-alive connection just as the client picks it from the pool.
    const seen = new WeakMap<object, number>();
    const sockets = new Set<object>();
    const dropping = await serve('127.0.0.1', (req, res) => {
      const n = (seen.get(req.socket) ?? 0) + 1;
      seen.set(req.socket, n);
      sockets.add(req.socket);
      if (n > 1) return void req.socket.destroy();
      res.end(`answer ${dropping.requests.length}`);
    });
    try {
      assert.equal(
        (await outbound.request(`${dropping.url}/one`, { method: 'POST', body: 'a' })).status,
        200,
      );
      const again = await outbound.request(`${dropping.url}/two`, {
        method: 'POST',
        body: 'b',
        idempotent: true,
      });
      assert.equal(again.status, 200);
      assert.equal(again.text(), 'answer 3');
      assert.deepEqual(
        dropping.requests.map((r) => [r.path, r.body]),
        [
          ['/one', 'a'],
          ['/two', 'b'],
          ['/two', 'b'],
        ],
      );
      assert.equal(sockets.size, 2, 'the retry went on a new connection');
      // A POST not said to be idempotent (a model or payment call) is never sent twice.
      assert.equal((await outbound.request(`${dropping.url}/warm`)).status, 200);
      await assert.rejects(
        outbound.request(`${dropping.url}/three`, { method: 'POST', body: 'c' }),
        withCode('outbound.unreachable'),
      );
      assert.deepEqual(
        dropping.requests.slice(3).map((r) => r.path),
        ['/warm', '/three'],
      );
    } finally {
      await dropping.close();
    }
    // A new connection that drops is the server's answer, not a stale pool: one attempt, unreachable.
    const resetting = await serve('127.0.0.1', (req) => void req.socket.destroy());
    try {
      await assert.rejects(outbound.request(`${resetting.url}/x`), withCode('outbound.unreachable'));
      assert.equal(resetting.requests.length, 1);
    } finally {
      await resetting.close();
    }
  });
});
