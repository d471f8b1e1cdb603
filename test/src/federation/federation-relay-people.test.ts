// The relay following mode `people`, on loopback: a global instance G and two sovereigns A and B, each
// peered with G only, with background sync on. B takes the origins its people follow: nothing of A
// until a person on B follows an agent of A (known here through G, named @handle@host), then A's new
// events, and nothing again once they unfollow. G is told the set each time (its relay_peer_following
// row for B), and the follow operations answer their codes (unknown agent, already following, not
// following) writing nothing.
import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { eventuallyWithin } from '@tributary/test';
import { footprint, startPeeredInstances, SYNC_ENV, type Loose, type Node } from './federation-helpers.js';

const eventually = eventuallyWithin(90_000);

async function registryOf(node: Node, origin: string): Promise<Loose[]> {
  const r = await fetch(`${node.url}/api/federation/registry?origin=${origin}&limit=200`);
  return ((await r.json()) as Loose).agents as Loose[];
}

async function status(node: Node): Promise<Loose> {
  const r = await node.operator.get('/api/federation/status');
  assert.equal(r.status, 200, r.text);
  return r.json as Loose;
}

describe('relay following mode people', () => {
  let g: Node;
  let a: Node;
  let b: Node;

  beforeAll(async () => {
    [g, a, b] = await startPeeredInstances({
      env: SYNC_ENV,
      global: { name: 'Global' },
      sovereigns: [
        { role: 'person', name: 'Ada' },
        { role: 'group', name: 'Bakers' },
      ],
    });
  }, 120_000);

  afterAll(async () => {
    await Promise.all([g, a, b].map((n) => n?.instance.destroy()));
  });

  /** What G was told B takes. */
  async function toldByB() {
    const { rows } = await g.instance.instance.pool.query<{ mode: string; origins: string[] }>(
      'SELECT mode, origins FROM relay_peer_following WHERE peer_id = $1',
      [b.id],
    );
    return rows[0] ?? null;
  }

  /** A persona made on A, and G's delivery to B past it both ways (push, and B's pull of G's export). */
  async function personaOnA(name: string) {
    const made = await a.operator.post('/api/ops/svc.agent.create_persona', { name });
    assert.equal(made.status, 201, made.text);
    const agentId: string = made.json.result.agentId;
    await eventually(`${name} on G`, async () =>
      (await registryOf(g, a.id)).find((x) => x.remote?.agentId === agentId),
    );
    const { rows } = await g.instance.instance.pool.query<{ seq: string }>(
      `SELECT max(s.seq) AS seq FROM event_sequence s JOIN events e ON e.position = s.position
       WHERE e.origin = $1`,
      [a.id],
    );
    const past = Number(rows[0]!.seq);
    await eventually(`G’s push to B past ${name}`, async () => {
      const mine = ((await status(g)).cursors as Loose[]).find((p) => p.peerId === b.id);
      return mine?.push && mine.push.position >= past;
    });
    await eventually(`B’s pull of G past ${name}`, async () => {
      const mine = ((await status(b)).cursors as Loose[]).find((p) => p.peerId === g.id);
      return mine?.pull && mine.pull.position >= past;
    });
    return agentId;
  }

  const onB = async (agentId: string) =>
    (await registryOf(b, a.id)).some((x) => x.remote?.agentId === agentId);

  let kitchenHere = '';
  test('given B takes all origins, then a persona of A reaches B through G', async () => {
    const made = await a.operator.post('/api/ops/svc.agent.create_persona', {
      name: 'Ada’s kitchen',
      handle: 'adas_kitchen',
    });
    assert.equal(made.status, 201, made.text);
    const kitchen: string = made.json.result.agentId;
    const entry = await eventually('the persona on B', async () =>
      (await registryOf(b, a.id)).find((x) => x.remote?.agentId === kitchen),
    );
    kitchenHere = entry.agentId;
  });

  test('given B takes the origins its people follow and nobody follows, then G is told none and B takes nothing of A', async () => {
    const set = await b.operator.post('/api/ops/svc.federation.set_relay_following', { mode: 'people' });
    assert.equal(set.status, 201, set.text);
    assert.deepEqual(set.json.result, { mode: 'people', origins: [], relays: [g.id] });
    assert.deepEqual(await toldByB(), { mode: 'list', origins: [] });
    const refused = await b.operator.post('/api/ops/svc.federation.set_relay_following', {
      mode: 'people',
      origins: [a.id],
    });
    assert.equal(refused.status, 400, refused.text);
    assert.equal(refused.json.code, 'input.invalid');
    const quiet = await personaOnA('Before anyone follows');
    assert.equal(await onB(quiet), false);
  });

  test('given a person on B follows an agent of A, then G is told A and B takes A’s new events; the codes for following twice, an unknown agent and not following', async () => {
    const host = new URL(a.url).host;
    const followed = await b.operator.post('/api/ops/svc.agent.follow', { agent: `@adas_kitchen@${host}` });
    assert.equal(followed.status, 201, followed.text);
    assert.equal(followed.json.result.agentId, kitchenHere);
    assert.equal(followed.json.result.origin, a.id);
    assert.deepEqual(await toldByB(), { mode: 'list', origins: [a.id] });
    const shown = await b.operator.post('/api/ops/svc.federation.status', {});
    assert.deepEqual(shown.json.result.relay.following, { mode: 'people', origins: [a.id] });

    const listed = await b.operator.post('/api/ops/svc.agent.list_followed', {});
    assert.equal(listed.status, 200, listed.text);
    assert.deepEqual(
      (listed.json.result.following as Loose[]).map((f) => [f.agentId, f.origin, f.handle]),
      [[kitchenHere, a.id, 'adas_kitchen']],
    );

    // What B itself writes: A's earlier events may still be arriving through G (B now takes A), so the
    // whole footprint can grow while the refusals below write nothing.
    const ownWrites = async () =>
      (
        await b.instance.instance.pool.query<Record<string, string>>(
          `SELECT (SELECT count(*) FROM events WHERE origin = $1) AS events,
                  (SELECT count(*) FROM rm_agent_follows) AS follows,
                  (SELECT count(*) FROM rm_agents WHERE placeholder) AS placeholders`,
          [b.id],
        )
      ).rows[0]!;
    const before = await ownWrites();
    const twice = await b.operator.post('/api/ops/svc.agent.follow', { agent: kitchenHere });
    assert.equal(twice.status, 409, twice.text);
    assert.equal(twice.json.code, 'follow.already_following');
    const unknown = await b.operator.post('/api/ops/svc.agent.follow', { agent: '@nobody_here' });
    assert.equal(unknown.status, 404, unknown.text);
    assert.equal(unknown.json.code, 'follow.unknown_agent');
    const stranger = await b.operator.post('/api/ops/svc.agent.unfollow', {
      agentId: '5d7e0c2a-1b3f-4e6d-8a9b-0c1d2e3f4a5b',
    });
    assert.equal(stranger.status, 409, stranger.text);
    assert.equal(stranger.json.code, 'follow.not_following');
    assert.deepEqual(await ownWrites(), before);

    const made = await a.operator.post('/api/ops/svc.agent.create_persona', { name: 'After the follow' });
    assert.equal(made.status, 201, made.text);
    const after: string = made.json.result.agentId;
    await eventually('A’s new persona on B', () => onB(after));
  });

  test('given G refuses to be told, then an unfollow that leaves A unfollowed fails federation.relay_unavailable and writes nothing', async () => {
    const blocked = await g.operator.call('PATCH', '/api/federation/peers', { peerId: b.id, blocked: true });
    assert.equal(blocked.status, 200, blocked.text);
    try {
      const before = await footprint(b);
      const r = await b.operator.post('/api/ops/svc.agent.follow', { agent: kitchenHere });
      assert.equal(r.status, 409, r.text); // followed already: refused before any relay is asked
      const unfollow = await b.operator.post('/api/ops/svc.agent.unfollow', { agentId: kitchenHere });
      assert.equal(unfollow.status, 503, unfollow.text);
      assert.equal(unfollow.json.code, 'federation.relay_unavailable');
      assert.deepEqual(await footprint(b), before);
      const listed = await b.operator.post('/api/ops/svc.agent.list_followed', {});
      assert.equal(listed.json.result.following.length, 1);
      assert.deepEqual(await toldByB(), { mode: 'list', origins: [a.id] });
    } finally {
      const unblocked = await g.operator.call('PATCH', '/api/federation/peers', {
        peerId: b.id,
        blocked: false,
      });
      assert.equal(unblocked.status, 200, unblocked.text);
    }
  });

  test('given they unfollow, then G is told none and B takes nothing more of A', async () => {
    const r = await b.operator.post('/api/ops/svc.agent.unfollow', { agentId: kitchenHere });
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(r.json.result, { agentId: kitchenHere, origin: a.id, following: false });
    assert.deepEqual(await toldByB(), { mode: 'list', origins: [] });
    const listed = await b.operator.post('/api/ops/svc.agent.list_followed', {});
    assert.deepEqual(listed.json.result.following, []);
    const quiet = await personaOnA('After the unfollow');
    assert.equal(await onB(quiet), false);
  });
});
