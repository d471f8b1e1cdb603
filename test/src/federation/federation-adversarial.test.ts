// Bad input on the federation import: each case is refused with a clear code and writes
// nothing (the log and the federation read models are counted before and after).
import { generateSigningKey } from '@tributary/infra';
import { createOutboundHttp, createUrlGuard } from '@tributary/adapters';
import assert from 'node:assert/strict';

import { afterAll, beforeAll, describe, test } from 'vitest';
import {
  clientOf,
  footprint,
  ownEvents,
  register,
  sealerOf,
  signedPost,
  startNode,
  type Loose,
  type Node,
} from './federation-helpers.js';

describe('federation import refuses bad input and writes nothing', () => {
  let a: Node; // a registered peer of b
  let b: Node; // the receiver
  let c: Node; // a third instance; registered on b only where a case says so
  let importUrl: string;
  let seal: ReturnType<typeof sealerOf>;
  const fresh = (name = 'Someone') => {
    const id = crypto.randomUUID();
    return seal({
      type: 'agent.created',
      stream: `agent-${id}`,
      actorId: id,
      data: { agentId: id, kind: 'person', name },
    });
  };
  const nothingWritten = async (run: () => Promise<void>) => {
    const before = await footprint(b);
    await run();
    assert.deepEqual(await footprint(b), before, 'nothing was written');
  };

  beforeAll(async () => {
    [a, b, c] = await Promise.all([
      startNode('group', 'Origin'),
      startNode('global', 'Receiver'),
      startNode('locale', 'Third'),
    ]);
    await register(b, a);
    importUrl = `${b.url}/api/federation/events/import`;
    seal = sealerOf(a);
    // Something already imported, so replays have something to replay.
    const first = await clientOf(a).importEvents(b.url, await ownEvents(a));
    assert.equal(first.rejected, 0, JSON.stringify(first.results));
  });
  afterAll(async () => {
    await Promise.all([a?.instance.destroy(), b?.instance.destroy(), c?.instance.destroy()]);
  });

  const batch = (...texts: string[]) => `{"events":[${texts.join(',')}]}`;

  test('given an unknown peer, when it posts a batch, then 401 federation.unknown_peer', async () => {
    await nothingWritten(async () => {
      const r = await signedPost(c, importUrl, batch(fresh().text));
      assert.equal(r.status, 401);
      assert.equal(r.json.code, 'federation.unknown_peer');
      assert.match(r.headers.get('content-type')!, /application\/problem\+json/);
    });
  });

  test('given no signature at all, then 401 federation.signature_required', async () => {
    await nothingWritten(async () => {
      const r = await fetch(importUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: batch(fresh().text),
      });
      assert.equal(r.status, 401);
      assert.equal(((await r.json()) as Loose).code, 'federation.signature_required');
    });
  });

  test('given a signature by a key that is not the peer’s (its key id, another key), then 401 federation.bad_signature', async () => {
    const { privateKey } = generateSigningKey();
    await nothingWritten(async () => {
      const r = await signedPost({ keyId: a.keyId, privateKey }, importUrl, batch(fresh().text));
      assert.equal(r.status, 401);
      assert.equal(r.json.code, 'federation.bad_signature');
    });
  });

  test('given one changed byte in the body after signing, then 401 federation.digest_mismatch', async () => {
    const body = batch(fresh('Original').text);
    await nothingWritten(async () => {
      const r = await signedPost(a, importUrl, body, { sentBody: body.replace('Original', 'Originam') });
      assert.equal(r.status, 401);
      assert.equal(r.json.code, 'federation.digest_mismatch');
    });
  });

  test('given one changed byte in one event (request re-signed), then that event is rejected envelope.bad_signature and the others still count', async () => {
    const good = fresh('Good');
    const tampered = fresh('Tampered').text.replace('Tampered', 'Tamperad');
    const before = await footprint(b);
    const r = await clientOf(a).importEvents(b.url, [tampered]);
    assert.equal(r.rejected, 1);
    assert.equal(r.results[0]!.code, 'envelope.bad_signature');
    assert.deepEqual(await footprint(b), before, 'nothing was written');
    const mixed = await clientOf(a).importEvents(b.url, [tampered, good.text]);
    assert.deepEqual(
      mixed.results.map((x) => x.status),
      ['rejected', 'accepted'],
    );
  });

  test('given the same request replayed, then 401 federation.replayed_request; with a new nonce, the events are duplicates', async () => {
    const body = batch(fresh().text);
    const nonce = 'replayreplayreplay0001';
    const first = await signedPost(a, importUrl, body, { nonce });
    assert.equal(first.status, 200);
    assert.equal(first.json.accepted, 1);
    await nothingWritten(async () => {
      const again = await signedPost(a, importUrl, body, { nonce });
      assert.equal(again.status, 401);
      assert.equal(again.json.code, 'federation.replayed_request');
      const renewed = await signedPost(a, importUrl, body);
      assert.equal(renewed.status, 200);
      assert.equal(renewed.json.duplicates, 1);
      assert.equal(renewed.json.accepted, 0);
    });
  });

  test('given an event re-encoded, or the same nonce on another event id, then duplicate and federation.replayed_nonce', async () => {
    const original = fresh('Nonce owner');
    assert.equal((await clientOf(a).importEvents(b.url, [original.text])).accepted, 1);
    const reencoded = JSON.stringify(JSON.parse(original.text), null, 1).replace(/"v"/, '"\\u0076"');
    // A genuinely signed event by the origin, reusing the nonce under a new id.
    const id = crypto.randomUUID();
    const sameNonce = seal({
      type: 'agent.created',
      stream: `agent-${id}`,
      actorId: id,
      data: { agentId: id, kind: 'person', name: 'Copycat' },
      nonce: original.envelope.nonce,
    });
    await nothingWritten(async () => {
      const r = await clientOf(a).importEvents(b.url, [reencoded, sameNonce.text]);
      assert.equal(r.results[0]!.status, 'duplicate');
      assert.equal(r.results[1]!.code, 'federation.replayed_nonce');
    });
  });

  test('given duplicate JSON keys in an event, then envelope.duplicate_key', async () => {
    const e = fresh('Dup');
    const dup = e.text.replace('"name":"Dup"', '"name":"Dup","name":"Dupe"');
    assert.notEqual(dup, e.text);
    await nothingWritten(async () => {
      const r = await clientOf(a).importEvents(b.url, [dup]);
      assert.equal(r.results[0]!.code, 'envelope.duplicate_key');
    });
  });

  test('given a peer’s profile update with a javascript:, data: or credentialed avatarUrl, then federation.bad_event_data and nothing is written', async () => {
    const created = fresh('Linker');
    assert.equal((await clientOf(a).importEvents(b.url, [created.text])).accepted, 1);
    const agentId = JSON.parse(created.text).data.agentId as string;
    const update = (avatarUrl: string) =>
      seal({
        type: 'agent.profile_updated',
        stream: `agent-${agentId}`,
        streamVersion: 2,
        actorId: agentId,
        data: { avatarUrl },
      }).text;
    const bad = [
      'javascript:alert(document.cookie)',
      'data:text/html,<script>alert(1)</script>',
      'https://user:secret@example.org/a.png',
    ];
    await nothingWritten(async () => {
      const r = await clientOf(a).importEvents(b.url, bad.map(update));
      assert.deepEqual(
        r.results.map((x) => [x.status, x.code]),
        bad.map(() => ['rejected', 'federation.bad_event_data']),
      );
    });
    // The same update with an https URL is taken.
    const good = await clientOf(a).importEvents(b.url, [update('https://example.org/linker.png')]);
    assert.equal(good.accepted, 1, JSON.stringify(good.results));
  });

  test('given a stale or future `created`, then 401 federation.stale_request', async () => {
    // Well outside the ±300 s window, and taken per request: on a loaded machine a `now` taken once can
    // drift into the window before the second request is sent.
    await nothingWritten(async () => {
      for (const offset of [-600, 600]) {
        const created = Math.floor(Date.now() / 1000) + offset;
        const r = await signedPost(a, importUrl, batch(fresh().text), { created });
        assert.equal(r.status, 401);
        assert.equal(r.json.code, 'federation.stale_request');
      }
    });
  });

  test('given an event older than the window or from the future, then federation.stale_event / federation.future_event', async () => {
    const id = crypto.randomUUID();
    const old = seal({
      type: 'agent.created',
      stream: `agent-${id}`,
      actorId: id,
      data: { agentId: id, kind: 'person', name: 'Old' },
      occurredAt: new Date(Date.now() - 8 * 24 * 3600 * 1000).toISOString(),
    });
    const future = seal({
      type: 'agent.created',
      stream: `agent-${id}`,
      actorId: id,
      data: { agentId: id, kind: 'person', name: 'Future' },
      occurredAt: new Date(Date.now() + 3600 * 1000).toISOString(),
    });
    await nothingWritten(async () => {
      const r = await clientOf(a).importEvents(b.url, [old.text, future.text]);
      assert.deepEqual(
        r.results.map((x) => x.code),
        ['federation.stale_event', 'federation.future_event'],
      );
    });
  });

  test('given an event whose origin is another instance, or whose actor or subject belongs to another instance, then federation.origin_mismatch / foreign_actor / foreign_agent', async () => {
    const fromC = sealerOf(c)({
      type: 'agent.created',
      stream: `agent-${c.operatorAgentId}`,
      actorId: c.operatorAgentId,
      data: { agentId: c.operatorAgentId, kind: 'person', name: 'Relayed' },
    });
    // A (a real peer) attributes an event to one of B's own agents, and speaks of it.
    const actsAsB = seal({
      type: 'agent.profile_updated',
      stream: `agent-${b.operatorAgentId}`,
      actorId: b.operatorAgentId,
      data: { name: 'Hijacked' },
    });
    const aboutB = seal({
      type: 'agent.profile_updated',
      stream: `agent-${b.operatorAgentId}`,
      actorId: a.operatorAgentId,
      data: { name: 'Hijacked' },
    });
    await nothingWritten(async () => {
      const r = await clientOf(a).importEvents(b.url, [fromC.text, actsAsB.text, aboutB.text]);
      assert.deepEqual(
        r.results.map((x) => x.code),
        ['federation.origin_mismatch', 'federation.foreign_actor', 'federation.foreign_agent'],
      );
    });
  });

  test('given a placeholder bound to one origin, when another peer sends an agent.created for that id, then federation.foreign_agent and the placeholder stays', async () => {
    const ownerId = crypto.randomUUID();
    const childId = crypto.randomUUID();
    const child = seal({
      type: 'agent.created',
      stream: `agent-${childId}`,
      actorId: ownerId,
      data: { agentId: childId, kind: 'persona', name: 'Child', ownerAgentId: ownerId },
    });
    assert.equal((await clientOf(a).importEvents(b.url, [child.text])).accepted, 1);
    await register(b, c);
    const usurper = sealerOf(c)({
      type: 'agent.created',
      stream: `agent-${ownerId}`,
      actorId: c.operatorAgentId,
      data: { agentId: ownerId, kind: 'person', name: 'Usurper' },
    });
    await nothingWritten(async () => {
      const r = await clientOf(c).importEvents(b.url, [usurper.text]);
      assert.equal(r.results[0]!.code, 'federation.foreign_agent');
    });
    const { rows } = await b.instance.instance.pool.query<{ placeholder: boolean; name: string }>(
      `SELECT a.placeholder, a.name FROM rm_remote_agents r JOIN rm_agents a ON a.agent_id = r.local_agent_id
       WHERE r.origin = $1 AND r.remote_agent_id = $2`,
      [a.id, ownerId],
    );
    assert.deepEqual(rows, [{ placeholder: true, name: '' }]);
  });

  test('given an oversized batch (too many events, or too many bytes), then 413 federation.batch_too_large', async () => {
    const one = fresh().text;
    await nothingWritten(async () => {
      const many = await signedPost(a, importUrl, batch(...Array.from({ length: 501 }, () => one)));
      assert.equal(many.status, 413);
      assert.equal(many.json.code, 'federation.batch_too_large');
      const big = await signedPost(a, importUrl, batch(one) + ' '.repeat(2 * 1024 * 1024));
      assert.equal(big.status, 413);
      assert.equal(big.json.code, 'federation.batch_too_large');
    });
  });

  test('given a body that is not {"events":[…]}, then 400 federation.bad_batch', async () => {
    await nothingWritten(async () => {
      const r = await signedPost(a, importUrl, `{"events":[${fresh().text}],"also":1}`);
      assert.equal(r.status, 400);
      assert.equal(r.json.code, 'federation.bad_batch');
    });
  });

  test('given a blocked peer, then 403 federation.peer_blocked until it is unblocked', async () => {
    const blocked = await b.operator.call('PATCH', '/api/federation/peers', {
      peerId: a.id,
      blocked: true,
      reason: 'test',
    });
    assert.equal(blocked.status, 200, blocked.text);
    assert.deepEqual(blocked.json.result.changed, ['peer.blocked']);
    await nothingWritten(async () => {
      const r = await signedPost(a, importUrl, batch(fresh().text));
      assert.equal(r.status, 403);
      assert.equal(r.json.code, 'federation.peer_blocked');
    });
    const unblocked = await b.operator.call('PATCH', '/api/federation/peers', {
      peerId: a.id,
      blocked: false,
    });
    assert.deepEqual(unblocked.json.result.changed, ['peer.unblocked']);
  });

  test('given a rotated key, then the old key no longer authenticates requests but still verifies events it signed while valid', async () => {
    const signedBefore = fresh('Signed before rotation');
    const next = generateSigningKey();
    const nextPublic = next.publicKey.export({ format: 'jwk' }).x!;
    const rotated = await b.operator.call('PATCH', '/api/federation/peers', {
      peerId: a.id,
      publicKey: nextPublic,
    });
    assert.equal(rotated.status, 200, rotated.text);
    const nextKeyId = rotated.json.result.keys.find((k: Loose) => !k.validUntil).keyId as string;
    await nothingWritten(async () => {
      const r = await signedPost(a, importUrl, batch(fresh().text));
      assert.equal(r.status, 401);
      assert.equal(r.json.code, 'federation.key_retired');
    });
    // A request signed with the new key carries an event A signed with the old one before rotation.
    const r = await clientOf({ keyId: nextKeyId, privateKey: next.privateKey }).importEvents(b.url, [
      signedBefore.text,
    ]);
    assert.equal(r.accepted, 1, JSON.stringify(r.results));
  });

  test('given production mode, when a peer base URL points at loopback, link-local or private addresses, then 400 federation.unsafe_url', async () => {
    const guard = createUrlGuard(
      createOutboundHttp({
        resolve: async (host) =>
          ({ 'rebind.example': ['93.184.216.34', '10.0.0.5'], 'ok.example': ['93.184.216.34'] })[host] ?? [],
      }),
    );
    for (const url of [
      'http://127.0.0.1:8080',
      'http://[::1]/',
      'http://169.254.169.254/latest',
      'http://10.1.2.3',
      'http://192.168.0.1',
      'http://172.20.0.1',
      'http://[fe80::1]',
      'http://[::ffff:127.0.0.1]',
      'http://rebind.example',
    ])
      await assert.rejects(guard.checkPeerUrl(url), (e: Loose) => e.code === 'federation.unsafe_url', url);
    await guard.checkPeerUrl('https://ok.example');

    const prod = await startNode('person', 'Production', { NODE_ENV: 'production' });
    try {
      const before = await footprint(prod);
      for (const baseUrl of [
        'http://127.0.0.1:9000',
        'http://localhost:9000',
        'http://169.254.169.254',
        'http://10.0.0.1',
      ]) {
        const r = await prod.operator.post('/api/federation/peers', {
          peerId: crypto.randomUUID(),
          baseUrl,
          role: 'group',
          publicKey: a.publicKey,
        });
        assert.equal(r.status, 400, baseUrl);
        assert.equal(r.json.code, 'federation.unsafe_url', baseUrl);
      }
      assert.deepEqual(await footprint(prod), before);
    } finally {
      await prod.instance.destroy();
    }
  });
});
