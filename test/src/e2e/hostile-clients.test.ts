// Clients that attack the HTTP server itself, against a real `tributary start` process with a
// registered peer, over raw sockets: an oversized chunked upload naming the peer's key with a garbage
// signature (it once ended the process), bodies and headers trickled a byte at a time, many of them at
// once. The instance must answer what it can, cut what is too slow, write nothing, and keep serving.
import { createTestDatabase, browser, startTestInstance, type TestDatabase } from '@tributary/test';
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, test } from 'vitest';
import pg from 'pg';
import { v7 as uuidv7 } from 'uuid';
import { startNode, type Node } from '../federation/federation-helpers.js';
import { logLines, ready, startReporting, waitForLine, type StartedProcess } from './start-helpers.js';

const HEADERS_TIMEOUT_MS = 1000;
const REQUEST_TIMEOUT_MS = 2000;
/** The server looks for expired requests every 250 ms here (a quarter of the headers timeout); the rest is room for a loaded machine. */
const CUT_SLACK_MS = 2500;

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** One raw connection: what it received, and when the server closed it. */
function connect(port: number) {
  const sock = net.connect(port, '127.0.0.1');
  sock.setNoDelay(true);
  let received = Buffer.alloc(0);
  sock.on('data', (d: Buffer) => (received = Buffer.concat([received, d])));
  sock.on('error', () => undefined); // a reset after the server closed is expected
  const opened = Date.now();
  const closed = new Promise<number>((resolve) => sock.on('close', () => resolve(Date.now() - opened)));
  return {
    sock,
    closed,
    raw: () => received,
    /** The first response on the connection (its body by Content-Length). */
    response(): RawResponse | null {
      const text = received.toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      if (end < 0) return null;
      const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
      const headers: Record<string, string> = {};
      for (const l of lines) {
        const i = l.indexOf(':');
        headers[l.slice(0, i).trim().toLowerCase()] = l.slice(i + 1).trim();
      }
      const length = Number(headers['content-length'] ?? 0);
      const body = received.subarray(Buffer.byteLength(text.slice(0, end + 4), 'latin1')).subarray(0, length);
      return { status: Number(statusLine!.split(' ')[1]), headers, body: body.toString('utf8') };
    },
  };
}

const within = <T>(p: Promise<T>, ms: number, what: string) =>
  Promise.race([
    p,
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms),
    ),
  ]);

/** Writes one byte every `everyMs` until the connection closes; resolves to the number written. */
function trickle(c: ReturnType<typeof connect>, everyMs: number): Promise<number> {
  let sent = 0;
  return new Promise((resolve) => {
    const timer = setInterval(() => {
      if (c.sock.destroyed || !c.sock.writable) return;
      c.sock.write('a');
      sent++;
    }, everyMs);
    void c.closed.then(() => {
      clearInterval(timer);
      resolve(sent);
    });
  });
}

describe('hostile clients against a started instance', () => {
  let db: TestDatabase;
  let dataDir: string;
  let port: number;
  let url: string;
  let proc: StartedProcess;
  let peer: Node;
  let pool: pg.Pool;
  let peerKeyId: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    dataDir = await mkdtemp(join(tmpdir(), 'trib-hostile-'));
    const reporting = startReporting({
      NODE_ENV: 'test',
      DATABASE_URL: db.url,
      DATABASE_POOL_SIZE: '5',
      TRIBUTARY_DATA_DIR: dataDir,
      INSTANCE_ROLE: 'global',
      FEDERATION_SYNC: 'off',
      LOG_LEVEL: 'info',
      HTTP_HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS),
      HTTP_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
      HTTP_KEEP_ALIVE_TIMEOUT_MS: '1000',
    });
    proc = reporting;
    const at = await reporting.address();
    port = at.port!;
    url = at.url!;
    await ready(port, proc);
    pool = new pg.Pool({ connectionString: db.url, max: 2 });

    // A peer registered here, as its operator would: id, role and key from its manifest.
    peer = await startNode('person', 'Peer');
    const manifest = (await (await fetch(`${peer.url}/api/federation/manifest`)).json()) as {
      instanceId: string;
      role: string;
      baseUrl: string;
      keys: { keyId: string; publicKey: string }[];
    };
    peerKeyId = manifest.keys[0]!.keyId;
    const operator = browser(url);
    assert.equal(
      (await operator.post('/api/auth/signup', { handle: 'opal', password: 'correct horse battery' })).status,
      201,
    );
    const reg = await operator.post('/api/federation/peers', {
      peerId: manifest.instanceId,
      baseUrl: manifest.baseUrl,
      role: manifest.role,
      publicKey: manifest.keys[0]!.publicKey,
    });
    assert.equal(reg.status, 201, reg.text);
    // The sequencer numbers those events shortly after commit: wait, so later counts compare like with like.
    for (let f = await footprint(); f.sequenced !== f.events; f = await footprint())
      await new Promise((res) => setTimeout(res, 50));
  });

  afterAll(async () => {
    proc?.child.kill('SIGTERM');
    await proc?.exited;
    await pool?.end();
    await peer?.instance.destroy();
    await db?.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  /** What a request could have written: log rows, sequence numbers, remembered request nonces. */
  const footprint = async () =>
    (
      await pool.query<Record<string, string>>(
        `SELECT (SELECT count(*) FROM events) AS events, (SELECT count(*) FROM event_sequence) AS sequenced,
                (SELECT count(*) FROM peer_request_nonces) AS nonces`,
      )
    ).rows[0]!;

  const stillServing = async () => {
    assert.equal(proc.child.exitCode, null, `the instance exited:\n${proc.output()}`);
    const started = Date.now();
    const r = await fetch(`${url}/readyz`);
    assert.equal(r.status, 200);
    return Date.now() - started;
  };

  /** Request head of a peer-signed POST: the peer's real key id, a fresh nonce, a garbage signature. */
  const signedHead = (path: string, extra = '') =>
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n` +
    `Signature-Input: sig1=("@method" "@target-uri" "content-digest");created=${Math.floor(Date.now() / 1000)};` +
    `nonce="${randomBytes(16).toString('base64url')}";keyid="${peerKeyId}";alg="ed25519"\r\n` +
    `Signature: sig1=:${randomBytes(64).toString('base64')}:\r\n` +
    `Content-Digest: sha-256=:${randomBytes(32).toString('base64')}:\r\n${extra}\r\n`;

  test('given a chunked body over the limit naming a registered peer key with a garbage signature, when posted to import and mutations, then 413 with its code, nothing written, and the instance keeps serving', async () => {
    const before = await footprint();
    const answers: [string, string, RawResponse | null][] = [];
    for (const [path, code, limit] of [
      ['/api/federation/events/import', 'federation.batch_too_large', 2 * 1024 * 1024],
      ['/api/federation/mutations', 'request.too_large', 64 * 1024],
    ] as const) {
      const c = connect(port);
      c.sock.write(signedHead(path, 'Transfer-Encoding: chunked\r\n'));
      const piece = Buffer.alloc(64 * 1024, 'a');
      for (let sent = 0; sent <= limit + piece.length && !c.sock.destroyed; sent += piece.length)
        c.sock.write(`${piece.length.toString(16)}\r\n${piece.toString('latin1')}\r\n`);
      await within(c.closed, 10_000, `${path}: the server closes the connection`);
      answers.push([path, code, c.response()]);
      await new Promise((res) => setTimeout(res, 300)); // the access line is written after the close
      await stillServing();
    }
    assert.deepEqual(await footprint(), before);
    for (const [path, code, r] of answers) {
      assert.ok(r, `${path}: an answer came before the close`);
      assert.equal(r.status, 413, path);
      assert.match(r.headers['content-type']!, /^application\/problem\+json/);
      assert.equal((JSON.parse(r.body) as { code: string }).code, code, path);
      // The rest of the body is not read: the connection closes after the answer.
      assert.equal(r.headers['connection'], 'close', path);
    }
    // The log is written asynchronously: wait for both access lines.
    const logged413 = () =>
      logLines(proc.stdout()).filter(
        (l) => l.msg === 'request completed' && (l.res as { statusCode: number }).statusCode === 413,
      ).length;
    for (let i = 0; i < 100 && logged413() < 2; i++) await new Promise((res) => setTimeout(res, 50));
    assert.equal(logged413(), 2, 'both 413s were logged');
    const lines = logLines(proc.stdout());
    assert.equal(lines.filter((l) => /uncaught|unhandled/.test(l.msg)).length, 0, proc.output());
  });

  test('given a body trickled one byte at a time, when it outlasts the request timeout, then 408 request.timeout, the connection is cut, and nothing is written', async () => {
    const before = await footprint();
    const cases = [
      // Peer-signed: the body reader waits for bytes.
      signedHead('/api/federation/events/import', 'Content-Length: 100000\r\n'),
      // A JSON route: express's body parser waits for bytes.
      `POST /api/auth/signin HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"identifier":"`,
    ];
    await Promise.all(
      cases.map(async (head) => {
        const c = connect(port);
        c.sock.write(head);
        const sent = trickle(c, 200);
        const closedAfter = await within(c.closed, REQUEST_TIMEOUT_MS + CUT_SLACK_MS + 2000, 'cut');
        assert.ok(
          closedAfter >= REQUEST_TIMEOUT_MS - 100,
          `cut at ${closedAfter} ms, not before the timeout`,
        );
        assert.ok(closedAfter <= REQUEST_TIMEOUT_MS + CUT_SLACK_MS, `cut at ${closedAfter} ms`);
        assert.ok((await sent) > 3, 'bytes kept coming until the cut');
        const r = c.response();
        assert.ok(r, 'an answer before the close');
        assert.equal(r.status, 408);
        assert.match(r.headers['content-type']!, /^application\/problem\+json/);
        assert.equal((JSON.parse(r.body) as { code: string }).code, 'request.timeout');
      }),
    );
    await stillServing();
    assert.deepEqual(await footprint(), before);
  });

  test('given headers trickled one byte at a time, when they outlast the headers timeout, then 408 request.timeout and the connection is cut', async () => {
    const c = connect(port);
    c.sock.write(`GET /readyz HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-Slow: `);
    void trickle(c, 200);
    const closedAfter = await within(c.closed, HEADERS_TIMEOUT_MS + CUT_SLACK_MS + 2000, 'cut');
    assert.ok(closedAfter >= HEADERS_TIMEOUT_MS - 100, `cut at ${closedAfter} ms`);
    assert.ok(closedAfter <= HEADERS_TIMEOUT_MS + CUT_SLACK_MS, `cut at ${closedAfter} ms`);
    const r = c.response();
    assert.equal(r?.status, 408);
    assert.equal((JSON.parse(r.body) as { code: string }).code, 'request.timeout');
  });

  test('given 60 connections trickling bodies, when a normal client calls meanwhile, then it is served promptly and every slow one is cut at the timeout', async () => {
    const before = await footprint();
    const slow = Array.from({ length: 60 }, (_, i) => {
      const c = connect(port);
      c.sock.write(
        i % 2
          ? signedHead('/api/federation/events/import', 'Content-Length: 100000\r\n')
          : `POST /api/auth/signin HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{`,
      );
      void trickle(c, 500);
      return c;
    });
    await new Promise((res) => setTimeout(res, 500));
    // Normal clients, while all 60 are held open.
    for (let i = 0; i < 5; i++) {
      const took = await stillServing();
      assert.ok(took < 1000, `readyz took ${took} ms`);
      const started = Date.now();
      const feed = await fetch(`${url}/api/federation/events?since=0&limit=50`);
      assert.equal(feed.status, 200);
      await feed.text();
      assert.ok(Date.now() - started < 1000, `the feed took ${Date.now() - started} ms`);
    }
    const closedAfter = await within(
      Promise.all(slow.map((c) => c.closed)),
      REQUEST_TIMEOUT_MS + CUT_SLACK_MS + 3000,
      'all slow connections cut',
    );
    assert.ok(
      Math.max(...closedAfter) <= REQUEST_TIMEOUT_MS + CUT_SLACK_MS + 500,
      `${Math.max(...closedAfter)} ms`,
    );
    assert.deepEqual(
      slow.map((c) => c.response()?.status),
      slow.map(() => 408),
    );
    assert.deepEqual(await footprint(), before);
  });
});

describe('the process guard of tributary start', () => {
  test('given an exception nothing catches and a rejection nothing awaits, when they happen in a started instance, then each is logged with its stack and it keeps serving', async () => {
    const db = await createTestDatabase();
    const dataDir = await mkdtemp(join(tmpdir(), 'trib-guard-'));
    // The failpoint (NODE_ENV=test only) throws from a timer and rejects a promise right after start.
    const proc = startReporting({
      NODE_ENV: 'test',
      TRIBUTARY_FAILPOINTS: 'process.uncaught',
      DATABASE_URL: db.url,
      DATABASE_POOL_SIZE: '3',
      TRIBUTARY_DATA_DIR: dataDir,
      FEDERATION_SYNC: 'off',
      LOG_LEVEL: 'info',
    });
    try {
      const port = (await proc.address()).port!;
      await ready(port, proc);
      const exception = await waitForLine(proc, 'uncaught exception; the instance keeps serving');
      const rejection = await waitForLine(proc, 'unhandled promise rejection; the instance keeps serving');
      assert.equal(proc.child.exitCode, null, proc.output());
      assert.equal((await fetch(`http://127.0.0.1:${port}/readyz`)).status, 200);
      assert.equal(exception.level, 50);
      assert.match((exception.err as { stack: string }).stack, /an exception nothing catches/);
      assert.match((rejection.err as { stack: string }).stack, /a rejection nothing awaits/);
    } finally {
      proc.child.kill('SIGTERM');
      assert.equal(await proc.exited, 0, proc.output());
      await db.drop();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('long responses under short request timeouts', () => {
  test('given a feed page of several megabytes read by a slow client, when it takes longer than the request timeout, then it is not cut: the timeouts bound receiving requests, not sending answers', async () => {
    const instance = await startTestInstance({
      env: {
        HTTP_HEADERS_TIMEOUT_MS: '500',
        HTTP_REQUEST_TIMEOUT_MS: '1000',
        HTTP_KEEP_ALIVE_TIMEOUT_MS: '500',
      },
    });
    try {
      // 500 events of ~12 kB: a 6 MB page, more than the loopback socket buffers hold, so the server is
      // still writing while the client does not read.
      const { signer, store } = instance.instance.services;
      const at = new Date().toISOString();
      const sealed = await signer.sealMany(
        Array.from({ length: 500 }, () => {
          const agentId = randomUUID();
          return {
            v: 1 as const,
            id: uuidv7(),
            type: 'agent.created',
            origin: signer.origin,
            keyId: signer.keyId,
            stream: `agent-${agentId}`,
            streamVersion: 1,
            actorId: agentId,
            occurredAt: at,
            nonce: randomBytes(16).toString('base64url'),
            data: { agentId, kind: 'person', name: 'slow reader '.repeat(1000) },
          };
        }),
      );
      await store.append(
        sealed.map((s) => ({ stream: s.envelope.stream, expectedVersion: 0, envelopes: [s] })),
      );
      await instance.instance.sequencer.drain();

      const port = Number(new URL(instance.url).port);
      const c = connect(port);
      c.sock.write(
        `GET /api/federation/events?since=0&limit=500 HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`,
      );
      c.sock.pause();
      await new Promise((res) => setTimeout(res, 2500)); // longer than the request timeout and its check
      c.sock.resume();
      await within(c.closed, 30_000, 'the whole page');
      const r = c.response();
      assert.equal(r?.status, 200);
      assert.equal(r.headers['transfer-encoding'], 'chunked');
      // The chunked body, decoded: the page must be whole.
      const raw = c.raw().subarray(c.raw().indexOf('\r\n\r\n') + 4);
      let body = '';
      for (let at = 0; ;) {
        const eol = raw.indexOf('\r\n', at);
        const size = parseInt(raw.subarray(at, eol).toString('latin1'), 16);
        if (size === 0) break;
        body += raw.subarray(eol + 2, eol + 2 + size).toString('latin1');
        at = eol + 2 + size + 2;
      }
      assert.ok(body.length > 5_000_000, `${body.length} bytes`);
      const page = JSON.parse(Buffer.from(body, 'latin1').toString('utf8')) as { events: unknown[] };
      assert.ok(page.events.length >= 500);
    } finally {
      await instance.destroy();
    }
  });
});
