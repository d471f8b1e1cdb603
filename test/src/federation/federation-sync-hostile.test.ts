// A pull reads another instance's answer: untrusted input. Here the "peer" is a hostile HTTP server
// registered under a key of its own, answering our signed export requests with crafted pages. Every
// event is still verified against the peer's registered key on the bytes received, so the worst it can
// do is withhold: a malformed page moves nothing; forged or foreign events are refused one by one and
// nothing is materialized.
import { composedFor, federationComposed, syncPeer } from '@tributary/services';
import { createEnvelopeSigner, publicKeyBase64url, generateSigningKey } from '@tributary/infra';
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { footprint, register, sealerOf, startNode, type Node } from './federation-helpers.js';

const settings = { retryBaseMs: 100, pullIntervalMs: 60_000 };

describe('pulling from a hostile peer', () => {
  let us: Node;
  let honest: Node; // another real instance, whose genuine events the hostile peer tries to pass on
  let server: http.Server;
  let page = '';
  const hostileId = randomUUID();
  const keys = generateSigningKey();
  const hostileSigner = createEnvelopeSigner({ origin: hostileId, ...keys });
  const sealHostile = (name: string) => {
    const agentId = randomUUID();
    return hostileSigner.seal({
      v: 1,
      id: randomUUID(),
      type: 'agent.created',
      origin: hostileId,
      keyId: hostileSigner.keyId,
      stream: `agent-${agentId}`,
      streamVersion: 1,
      actorId: agentId,
      occurredAt: new Date().toISOString(),
      nonce: randomBytes(16).toString('base64url'),
      data: { agentId, kind: 'person', name },
    }).text;
  };

  beforeAll(async () => {
    [us, honest] = await Promise.all([startNode('global', 'Global'), startNode('group', 'Honest')]);
    server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(page));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const r = await us.operator.post('/api/federation/peers', {
      peerId: hostileId,
      baseUrl: url,
      role: 'person',
      publicKey: publicKeyBase64url(keys.publicKey),
    });
    assert.equal(r.status, 201, r.text);
    await register(us, honest);
  });
  afterAll(async () => {
    server?.close();
    await Promise.all([us?.instance.destroy(), honest?.instance.destroy()]);
  });

  const pull = () =>
    syncPeer(composedFor(us.instance.instance.services, federationComposed), hostileId, 'pull', settings);
  const cursorRow = async () =>
    (
      await us.instance.instance.pool.query<{ position: string; attempts: number; last_error_code: string }>(
        "SELECT position, attempts, last_error_code FROM federation_sync_cursors WHERE peer_id = $1 AND direction = 'pull'",
        [hostileId],
      )
    ).rows[0];

  test('given a page that is not an export page, or whose sequences do not increase, then the pull fails, nothing is written and the cursor stays', async () => {
    const before = await footprint(us);
    for (const [body, code] of [
      ['<html>hello</html>', 'federation.bad_export_page'],
      ['{"events":[{"sequence":1}],"head":1,"hasMore":false}', 'federation.bad_export_page'],
      ['{"events":[],"head":1,"hasMore":"no"}', 'federation.bad_export_page'],
      ['{"events":[],"events":[],"head":1,"hasMore":false}', 'federation.bad_export_page'],
      [
        `{"events":[{"sequence":5,"event":${sealHostile('a')}},{"sequence":5,"event":${sealHostile('b')}}],"head":5,"hasMore":false}`,
        'federation.bad_export_page',
      ],
    ] as const) {
      page = body;
      const outcome = await pull();
      assert.equal(outcome?.kind, 'failed', body);
      assert.equal(outcome.kind === 'failed' && outcome.code, code, body);
      const c = await cursorRow();
      assert.equal(Number(c!.position), 0);
      assert.equal(c!.last_error_code, code);
    }
    assert.deepEqual(await footprint(us), before);
  });

  test('given forged, tampered and foreign events in a well-formed page, then each is refused alone and nothing of them is materialized', async () => {
    const before = await footprint(us);
    const tampered = sealHostile('original').replace('original', 'tampered');
    const otherKey = generateSigningKey();
    const forged = createEnvelopeSigner({ origin: hostileId, ...otherKey });
    const agentId = randomUUID();
    const forgedText = forged
      .seal({
        v: 1,
        id: randomUUID(),
        type: 'agent.created',
        origin: hostileId,
        keyId: forged.keyId,
        stream: `agent-${agentId}`,
        streamVersion: 1,
        actorId: agentId,
        occurredAt: new Date().toISOString(),
        nonce: randomBytes(16).toString('base64url'),
        data: { agentId, kind: 'person', name: 'forged' },
      })
      // Signed by another key, then made to claim the registered one.
      .text.replace(forged.keyId, hostileSigner.keyId);
    // A genuine event of another instance, passed on by the hostile one: not its own, so refused.
    const honestEvent = sealerOf(honest)({
      type: 'agent.created',
      stream: `agent-${agentId}`,
      actorId: agentId,
      data: { agentId, kind: 'person', name: 'relayed' },
    }).text;
    page = `{"events":[{"sequence":1,"event":${tampered}},{"sequence":2,"event":${forgedText}},{"sequence":3,"event":${honestEvent}}],"head":3,"hasMore":false}`;
    const outcome = await pull();
    assert.equal(outcome?.kind, 'answered');
    assert.equal(outcome.kind === 'answered' && outcome.accepted, 0);
    assert.equal(outcome.kind === 'answered' && outcome.rejected, 3);
    assert.match(
      (outcome.kind === 'answered' && outcome.rejection) || '',
      /envelope\.bad_signature ×2, federation\.origin_mismatch ×1/,
    );
    assert.deepEqual(await footprint(us), before, 'nothing materialized');
    // The refusals are settled: the cursor moves past them (they would be refused again).
    assert.equal(Number((await cursorRow())!.position), 3);

    // Its own genuine events still come through.
    page = `{"events":[{"sequence":4,"event":${sealHostile('genuine')}}],"head":4,"hasMore":false}`;
    const ok = await pull();
    assert.equal(ok?.kind === 'answered' && ok.accepted, 1);
  });
});
