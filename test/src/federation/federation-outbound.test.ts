// Outbound calls to a hostile peer: it answers every request with a redirect to an "internal" address.
// The instance under test may reach 127.0.0.1 only (OUTBOUND_ALLOWED_ADDRESSES), so a second loopback
// server on 127.0.0.2 stands for an internal service it must never reach. Signed pushes, pulls and peer
// mutations are refused with `outbound.redirect_refused`, the internal server sees no request, and
// neither its answer nor anything else of it shows in `federation status`. `tributary peers add --from`
// (a real CLI process) refuses a forbidden address, a redirecting manifest server, an oversized and a
// hanging one, and registers nothing.
import { runCli } from '@tributary/test';
import { composedFor, federationComposed, syncPeer } from '@tributary/services';
import { publicKeyBase64url, generateSigningKey } from '@tributary/infra';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { footprint, startNode, type Loose, type Node } from './federation-helpers.js';

const INTERNAL_SECRET = 'internal-answer-7f3a';

interface Recorder {
  server: http.Server;
  url: string;
  requests: { method: string; url: string; headers: http.IncomingHttpHeaders }[];
  close(): Promise<void>;
}

/** An HTTP server on `host` that records each request and answers with `answer`. */
async function recorder(
  host: string,
  answer: (req: http.IncomingMessage, res: http.ServerResponse) => void,
): Promise<Recorder> {
  const requests: Recorder['requests'] = [];
  const server = http.createServer((req, res) => {
    requests.push({ method: req.method!, url: req.url!, headers: req.headers });
    req.resume();
    req.on('end', () => answer(req, res));
  });
  await new Promise<void>((r) => server.listen(0, host, r));
  return {
    server,
    url: `http://${host}:${(server.address() as AddressInfo).port}`,
    requests,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

describe('outbound calls never follow a peer past the address policy', () => {
  let us: Node;
  let internal: Recorder;
  let hostile: Recorder;
  const hostileId = randomUUID();
  const hostileKey = generateSigningKey();

  beforeAll(async () => {
    // What an internal service would answer a request that reached it.
    internal = await recorder('127.0.0.2', (_req, res) =>
      res
        .writeHead(400, { 'content-type': 'application/problem+json' })
        .end(JSON.stringify({ code: 'internal.secret', title: INTERNAL_SECRET, accepted: 0 })),
    );
    hostile = await recorder('127.0.0.1', (req, res) =>
      res.writeHead(307, { location: `${internal.url}${req.url}` }).end(),
    );
    us = await startNode('global', 'Global', { OUTBOUND_ALLOWED_ADDRESSES: '127.0.0.1' });
    const r = await us.operator.post('/api/federation/peers', {
      peerId: hostileId,
      baseUrl: hostile.url,
      role: 'person',
      publicKey: publicKeyBase64url(hostileKey.publicKey),
    });
    assert.equal(r.status, 201, r.text);
  });
  afterAll(async () => {
    await Promise.all([internal?.close(), hostile?.close(), us?.instance.destroy()]);
  });

  const cursor = async (direction: 'push' | 'pull') =>
    (
      await us.instance.instance.pool.query<{
        position: string;
        last_error_code: string;
        last_error: string;
      }>(
        'SELECT position, last_error_code, last_error FROM federation_sync_cursors WHERE peer_id = $1 AND direction = $2',
        [hostileId, direction],
      )
    ).rows[0];

  test('given a peer that answers 307 to an internal address, then the signed push and the pull are refused with outbound.redirect_refused and the internal server gets nothing', async () => {
    const before = await footprint(us);
    const settings = { retryBaseMs: 100, pullIntervalMs: 60_000 };
    await us.instance.instance.sequencer.drain(); // our own events wait in the feed to be pushed
    for (const direction of ['push', 'pull'] as const) {
      const outcome = await syncPeer(
        composedFor(us.instance.instance.services, federationComposed),
        hostileId,
        direction,
        settings,
      );
      assert.equal(outcome?.kind, 'failed', direction);
      assert.equal(outcome.kind === 'failed' && outcome.code, 'outbound.redirect_refused', direction);
      const c = await cursor(direction);
      assert.equal(Number(c!.position), 0, direction);
      assert.equal(c!.last_error_code, 'outbound.redirect_refused');
      assert.doesNotMatch(c!.last_error, new RegExp(`${INTERNAL_SECRET}|127\\.0\\.0\\.2`));
    }
    assert.equal(hostile.requests.length, 2);
    assert.ok(hostile.requests[0]!.headers['signature'], 'the push went to the peer, signed');
    assert.deepEqual(internal.requests, []);
    assert.deepEqual(await footprint(us), before);
  });

  test('given a peer mutation or probe sent to that peer, then outbound.redirect_refused and the internal server gets nothing', async () => {
    const client = us.instance.instance.services.federationSurface!.client!;
    await assert.rejects(
      client.mutate(hostile.url, { operation: 'svc.profile.update', input: { name: 'x' } }),
      (e: Loose) => e.code === 'outbound.redirect_refused' && !String(e.message).includes(INTERNAL_SECRET),
    );
    await assert.rejects(
      client.entityStatus(hostile.url, [{ kind: 'agent', id: randomUUID() }]),
      (e: Loose) => e.code === 'outbound.redirect_refused',
    );
    assert.deepEqual(internal.requests, []);
  });

  test('given federation status (the real CLI), then it shows the code and nothing of the internal answer', async () => {
    const { code, stdout } = await runCli(us.instance, ['federation', 'status'], {
      BASE_URL: us.url,
      INSTANCE_ROLE: 'global',
    });
    assert.equal(code, 0);
    assert.match(stdout, /push: .*FAILING ×1 \(outbound\.redirect_refused: /);
    assert.match(stdout, /pull: .*FAILING ×1 \(outbound\.redirect_refused: /);
    assert.doesNotMatch(stdout, new RegExp(`${INTERNAL_SECRET}|internal\\.secret|127\\.0\\.0\\.2`));
    const api = await us.operator.get('/api/federation/status');
    assert.equal(api.status, 200, api.text);
    const mine = (api.json.cursors as Loose[]).find((p) => p.peerId === hostileId)!;
    assert.equal(mine.push.lastErrorCode, 'outbound.redirect_refused');
    assert.equal(mine.pull.lastErrorCode, 'outbound.redirect_refused');
    assert.doesNotMatch(api.text, new RegExp(`${INTERNAL_SECRET}|internal\\.secret|127\\.0\\.0\\.2`));
  });

  describe('tributary peers add --from', () => {
    let cli: (...args: string[]) => Promise<{ stdout: string; stderr: string; code: number }>;
    const peerCount = async () =>
      Number(
        (await us.instance.instance.pool.query<{ n: string }>('SELECT count(*) AS n FROM rm_peers')).rows[0]!
          .n,
      );
    beforeAll(() => {
      cli = (...args) =>
        runCli(us.instance, args, {
          BASE_URL: us.url,
          INSTANCE_ROLE: 'global',
          OUTBOUND_ALLOWED_ADDRESSES: '127.0.0.1',
          OUTBOUND_TIMEOUT_MS: '1000',
        });
    });

    test('given a manifest URL the address policy forbids, a redirecting manifest server, an oversized or a hanging one, then exit 1 with the code and nothing registered', async () => {
      const oversized = await recorder('127.0.0.1', (_req, res) =>
        res.writeHead(200, { 'content-type': 'application/json' }).end(`{"pad":"${'x'.repeat(300 * 1024)}"}`),
      );
      const hanging = await recorder('127.0.0.1', () => undefined);
      try {
        const peersBefore = await peerCount();
        const before = await footprint(us);
        const internalBefore = internal.requests.length;
        const MANIFEST_TIMEOUT_MS = 10_000;
        let startUp = 0;
        for (const [from, code] of [
          [internal.url, 'outbound.unsafe_url'],
          [hostile.url, 'outbound.redirect_refused'],
          [oversized.url, 'outbound.too_large'],
          [hanging.url, 'outbound.timeout'],
        ] as const) {
          const started = Date.now();
          const r = await cli('peers', 'add', '--from', from);
          const took = Date.now() - started;
          assert.equal(r.code, 1, `${from}: ${r.stdout}`);
          assert.match(r.stderr, new RegExp(`^tributary: .+ \\(${code.replace('.', '\\.')}\\)$`, 'm'), from);
          assert.doesNotMatch(r.stderr, new RegExp(INTERNAL_SECRET));
          // The refused address fails before any connection: its run is the CLI's own start-up on this
          // machine now. A hanging server costs at most the manifest read's own timeout (10 s, not
          // OUTBOUND_TIMEOUT_MS) on top: no request is left waiting on it beyond that.
          if (code === 'outbound.unsafe_url') startUp = took;
          else assert.ok(took < startUp * 2 + MANIFEST_TIMEOUT_MS + 5_000, `${from} took ${took} ms`);
        }
        assert.equal(internal.requests.length, internalBefore);
        assert.equal(hostile.requests.at(-1)!.url, '/api/federation/manifest');
        assert.equal(await peerCount(), peersBefore);
        assert.deepEqual(await footprint(us), before);
      } finally {
        await Promise.all([oversized.close(), hanging.close()]);
      }
    });
  });
});
