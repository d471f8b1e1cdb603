// Federation export and import over real HTTP between real instances (each its own database, on loopback):
// peering through the operator API, export from one instance, import into another, agents materialized
// under local ids, placeholders and their upgrade, idempotent re-import.
import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import {
  clientOf,
  footprint,
  ownEvents,
  password,
  register,
  sealerOf,
  startNode,
  type Loose,
  type Node,
} from './federation-helpers.js';

describe('federation exchange between instances', () => {
  let a: Node; // a group instance: the origin of the events
  let b: Node; // the global instance: the receiver
  beforeAll(async () => {
    [a, b] = await Promise.all([startNode('group', 'Riverside'), startNode('global', 'Global')]);
  });
  afterAll(async () => {
    await Promise.all([a?.instance.destroy(), b?.instance.destroy()]);
  });

  test('given two operators, when each registers the other as a peer, then the secret is shown once and only operators may do it', async () => {
    const onB = await register(b, a, { name: 'Riverside' });
    assert.equal(onB.peerId, a.id);
    assert.equal(onB.keys[0].keyId, a.keyId);
    assert.match(onB.secret, /^[A-Za-z0-9_-]{43}$/, 'a generated secret is returned once');
    const listed = await b.operator.get('/api/federation/peers');
    assert.equal(listed.status, 200);
    assert.equal(listed.json.result.peers.length, 1);
    assert.equal(listed.json.result.peers[0].secret, undefined, 'never shown again');
    assert.ok(!JSON.stringify(listed.json).includes(onB.secret));

    const onA = await register(a, b, { secret: 'x'.repeat(40) });
    assert.equal(onA.secret, undefined, 'a secret the operator gave is not echoed');

    // Someone who is not the operator, or nobody at all.
    const stranger = (await import('@tributary/test')).browser(b.url);
    await stranger.post('/api/auth/signup', { handle: 'stranger', password: 'correct horse battery staple' });
    const denied = await stranger.post('/api/federation/peers', {
      peerId: '0b7f6a9e-0000-4000-8000-000000000001',
      baseUrl: 'http://127.0.0.1:9',
      role: 'person',
      publicKey: a.publicKey,
    });
    assert.equal(denied.status, 403);
    assert.equal(denied.json.code, 'auth.controller_only');
    const anonymous = await fetch(`${b.url}/api/federation/peers`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ peerId: a.id, blocked: true }),
    });
    assert.equal(anonymous.status, 401);
    assert.equal(((await anonymous.json()) as Loose).code, 'auth.required');
    const dup = await b.operator.post('/api/federation/peers', {
      peerId: a.id,
      baseUrl: a.url,
      role: 'group',
      publicKey: a.publicKey,
    });
    assert.equal(dup.status, 409);
  });

  test('given peers, when B pulls A’s export over signed HTTP and A pushes the events to B, then B materializes A’s agents under local ids', async () => {
    // A's operator makes a persona, so A has a person and a persona owned by it.
    const persona = await a.operator.post('/api/ops/svc.agent.create_persona', {
      name: 'Ada cooks',
      handle: 'ada_cooks',
    });
    assert.equal(persona.status, 201, persona.text);
    const personaRemoteId: string = persona.json.result.agentId;
    // The feed is numbered by the sequencer shortly after commit (docs/architecture.md#feed), not in the request.
    await a.instance.instance.sequencer.drain();

    const page = await clientOf(b).exportEvents(a.url, { since: 0, limit: 500 });
    assert.ok(page.events.length >= 4, 'instance.initialized, the primary agent, the operator, the persona');
    assert.ok(page.events.every((e) => (e.event as Loose).origin === a.id));
    assert.deepEqual(
      page.events.map((e) => e.sequence),
      [...page.events.map((e) => e.sequence)].sort((x, y) => x - y),
    );

    const before = await footprint(b);
    const texts = page.events.map((e) => JSON.stringify(e.event));
    const summary = await clientOf(a).importEvents(b.url, texts);
    assert.equal(
      summary.accepted,
      texts.length,
      JSON.stringify(summary.results.filter((r) => r.status !== 'accepted')),
    );
    assert.equal(summary.rejected, 0);
    const afterwards = await footprint(b);
    assert.ok(Number(afterwards.events) > Number(before.events));

    const reg = await fetch(`${b.url}/api/federation/registry?origin=${a.id}&limit=200`);
    const agents = ((await reg.json()) as Loose).agents as Loose[];
    const personaHere = agents.find((x) => x.remote?.agentId === personaRemoteId);
    assert.ok(personaHere, 'the persona is in B’s registry');
    assert.notEqual(personaHere.agentId, personaRemoteId, 'under a local id, never the raw remote id');
    assert.equal(personaHere.kind, 'persona');
    assert.equal(personaHere.handle, 'ada_cooks');
    const owner = agents.find((x) => x.remote?.agentId === a.operatorAgentId);
    assert.ok(owner);
    assert.equal(personaHere.ownerAgentId, owner.agentId, 'the owner is bound to its local id too');

    // The imported row's actor is the local agent, and the log keeps the bytes it received.
    const { rows } = await b.instance.instance.pool.query<{
      actor_id: string;
      stream: string;
      envelope: string;
    }>(
      `SELECT actor_id, stream, envelope FROM events WHERE origin = $1 AND type = 'agent.created' AND envelope LIKE $2`,
      [a.id, `%${personaRemoteId}%`],
    );
    assert.equal(rows.length, 1);
    assert.equal(rows[0]!.stream, `${a.id}/agent-${personaRemoteId}`);
    assert.equal(rows[0]!.actor_id, owner.agentId);
    assert.equal(
      rows[0]!.envelope,
      texts.find((t) => t.includes(`"agent-${personaRemoteId}"`)),
    );
    const one = await fetch(`${b.url}/api/federation/registry/${personaHere.agentId}`);
    assert.equal(one.status, 200);
    assert.equal(((await one.json()) as Loose).agent.agentId, personaHere.agentId);
  });

  test('given an imported batch, when it is sent again or re-encoded (key order, whitespace, unicode escapes), then nothing new is written', async () => {
    const texts = await ownEvents(a);
    const before = await footprint(b);
    const again = await clientOf(a).importEvents(b.url, texts);
    assert.equal(again.duplicates, texts.length);
    assert.equal(again.accepted, 0);
    const reencoded = texts.map((t) => {
      const e = JSON.parse(t) as Loose;
      const reordered = Object.fromEntries(Object.entries(e).reverse());
      return JSON.stringify(reordered, null, 2).replace(/[a-z]/g, (c) =>
        Math.random() < 0.3 ? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}` : c,
      );
    });
    // Escapes inside keys and values alike: the canonical form, and so the signature, is unchanged.
    const re = await clientOf(a).importEvents(b.url, reencoded);
    assert.equal(
      re.duplicates,
      texts.length,
      JSON.stringify(re.results.filter((r) => r.status !== 'duplicate')),
    );
    assert.deepEqual(await footprint(b), before);
  });

  test('given a resource that arrives before its owner, then a private placeholder owner is made, and the owner’s own agent.created upgrades it in place', async () => {
    const seal = sealerOf(a);
    const ownerId = crypto.randomUUID();
    const childId = crypto.randomUUID();
    const child = seal({
      type: 'agent.created',
      stream: `agent-${childId}`,
      actorId: ownerId,
      data: { agentId: childId, kind: 'persona', name: 'Early persona', ownerAgentId: ownerId },
    });
    const first = await clientOf(a).importEvents(b.url, [child.text]);
    assert.equal(first.accepted, 1, JSON.stringify(first.results));
    const pool = b.instance.instance.pool;
    const bound = async (remote: string) =>
      (
        await pool.query<{ local_agent_id: string; placeholder: boolean; name: string; kind: string }>(
          `SELECT r.local_agent_id, a.placeholder, a.name, a.kind FROM rm_remote_agents r
           JOIN rm_agents a ON a.agent_id = r.local_agent_id WHERE r.origin = $1 AND r.remote_agent_id = $2`,
          [a.id, remote],
        )
      ).rows[0]!;
    const placeholder = await bound(ownerId);
    assert.equal(placeholder.placeholder, true);
    const hidden = await fetch(`${b.url}/api/federation/registry/${placeholder.local_agent_id}`);
    assert.equal(hidden.status, 404, 'a placeholder is private');

    const owner = seal({
      type: 'agent.created',
      stream: `agent-${ownerId}`,
      actorId: ownerId,
      data: { agentId: ownerId, kind: 'person', name: 'Late owner' },
    });
    const second = await clientOf(a).importEvents(b.url, [owner.text]);
    assert.equal(second.accepted, 1);
    const upgraded = await bound(ownerId);
    assert.equal(upgraded.local_agent_id, placeholder.local_agent_id, 'upgraded in place');
    assert.equal(upgraded.placeholder, false);
    assert.equal(upgraded.name, 'Late owner');
    const childHere = await bound(childId);
    const row = await pool.query<{ owner_agent_id: string }>(
      'SELECT owner_agent_id FROM rm_agents WHERE agent_id = $1',
      [childHere.local_agent_id],
    );
    assert.equal(row.rows[0]!.owner_agent_id, placeholder.local_agent_id);
  });

  test('given a persona B holds, when A’s owner deletes it and B imports that, then B passes it over too', async () => {
    const made = await a.operator.post('/api/ops/svc.agent.create_persona', { name: 'Short lived' });
    assert.equal(made.status, 201, made.text);
    const remoteId: string = made.json.result.agentId;
    const imported = await clientOf(a).importEvents(b.url, await ownEvents(a));
    assert.equal(
      imported.rejected,
      0,
      JSON.stringify(imported.results.filter((r) => r.status === 'rejected')),
    );
    const localId = async () =>
      (
        await b.instance.instance.pool.query<{ local_agent_id: string }>(
          `SELECT local_agent_id FROM rm_remote_agents WHERE origin = $1 AND remote_agent_id = $2`,
          [a.id, remoteId],
        )
      ).rows[0]!.local_agent_id;
    const here = await localId();
    assert.equal((await fetch(`${b.url}/api/federation/registry/${here}`)).status, 200);

    const gone = await a.operator.post('/api/ops/svc.agent.delete_persona', {
      targetAgentId: remoteId,
      password,
    });
    assert.equal(gone.status, 201, gone.text);
    const deletion = await ownEvents(
      a,
      (e) => e.type === 'agent.deleted' && e.stream === `agent-${remoteId}`,
    );
    assert.equal(deletion.length, 1);
    const summary = await clientOf(a).importEvents(b.url, deletion);
    assert.equal(summary.accepted, 1, JSON.stringify(summary.results));
    assert.equal((await fetch(`${b.url}/api/federation/registry/${here}`)).status, 404);
    const { rows } = await b.instance.instance.pool.query<{ deleted: boolean }>(
      `SELECT deleted_at IS NOT NULL AS deleted FROM rm_agents WHERE agent_id = $1`,
      [here],
    );
    assert.deepEqual(rows, [{ deleted: true }]);
  });

  test('given B’s log after imports, when verified and rebuilt, then every signature checks out and the read models come back the same', async () => {
    const { verifyLog, rebuildProjections } = await import('@tributary/infra');
    const { allProjections } = await import('@tributary/projections');
    const pool = b.instance.instance.pool;
    const report = await verifyLog(pool);
    assert.equal(report.ok, true, JSON.stringify(report.firstBad));
    assert.ok((report.origins[a.id] ?? 0) > 0);
    const snapshot = async () =>
      (
        await pool.query(
          `SELECT (SELECT json_agg(x ORDER BY agent_id) FROM (SELECT agent_id, kind, name, placeholder, origin, owner_agent_id, remote_handle FROM rm_agents) x) AS agents,
                  (SELECT json_agg(r ORDER BY local_agent_id) FROM rm_remote_agents r) AS bindings,
                  (SELECT json_agg(p ORDER BY peer_id) FROM rm_peers p) AS peers,
                  (SELECT json_agg(k ORDER BY key_id) FROM rm_peer_keys k) AS keys`,
        )
      ).rows[0];
    const beforeRebuild = await snapshot();
    await rebuildProjections(
      pool,
      allProjections.filter((p) => p.mode === 'inline'),
    );
    assert.deepEqual(await snapshot(), beforeRebuild);
  });
});
