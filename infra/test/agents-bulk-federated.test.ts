// The agents projection folds new bindings (agent.materialized) and imported agent.created events in
// bulk, a few statements for a whole page; the result must equal folding the same events one by one.
import { holdConnectionForSuite } from '@tributary/test';
import { agentsProjection, runStatements, type ProjectedEvent } from '@tributary/projections';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'vitest';

const ORIGIN = 'peer-one';
const OTHER_ORIGIN = 'peer-two';

let clock = 0;
const at = () => new Date(Date.UTC(2026, 10, 1, 0, 0, clock++)).toISOString();

const event = (
  type: string,
  data: Record<string, unknown>,
  o: { imported?: boolean; origin?: string; stream?: string } = {},
): ProjectedEvent => ({
  id: randomUUID(),
  type,
  origin: o.origin ?? (o.imported ? ORIGIN : 'here'),
  stream: o.stream ?? `agent-${String(data.agentId ?? randomUUID())}`,
  streamVersion: 1,
  actorId: 'actor',
  occurredAt: at(),
  data,
  ...(o.imported && { imported: true as const }),
});

const materialized = (remote: string, local: string) =>
  event(
    'agent.materialized',
    { agentId: local, origin: ORIGIN, remoteAgentId: remote },
    { stream: `agent-${local}` },
  );
/** One record binding many (`agents.materialized`, what an import writes since issue 24). */
const materializedMany = (pairs: { remote: string; local: string }[]) =>
  event(
    'agents.materialized',
    { origin: ORIGIN, bindings: pairs.map((p) => ({ agentId: p.local, remoteAgentId: p.remote })) },
    { stream: `bindings-${ORIGIN}` },
  );
const created = (remote: string, data: Record<string, unknown>, origin = ORIGIN) =>
  event('agent.created', { agentId: remote, kind: 'person', ...data }, { imported: true, origin });
const profileUpdated = (remote: string, data: Record<string, unknown>) =>
  event('agent.profile_updated', data, { imported: true, stream: `agent-${remote}` });

describe('agents projection: bindings and imported creations in bulk', () => {
  const held = holdConnectionForSuite();

  /** The projection's rows after folding `events` with `fold`, inside a transaction rolled back after. */
  async function foldAndRead(events: ProjectedEvent[], fold: (events: ProjectedEvent[]) => Promise<void>) {
    await held.client.query('BEGIN');
    try {
      await fold(events);
      const agents = await held.client.query(
        `SELECT agent_id, kind, name, handle, remote_handle, owner_agent_id, bio, placeholder, origin,
                created_at, updated_at, deleted_at
         FROM rm_agents ORDER BY agent_id`,
      );
      const bindings = await held.client.query(
        'SELECT * FROM rm_remote_agents ORDER BY origin, remote_agent_id',
      );
      return { agents: agents.rows, bindings: bindings.rows };
    } finally {
      await held.client.query('ROLLBACK');
    }
  }
  const inBulk = (events: ProjectedEvent[]) =>
    runStatements(held.client, agentsProjection.statementsMany!(events)!);
  const oneByOne = async (events: ProjectedEvent[]) => {
    for (const e of events) await runStatements(held.client, agentsProjection.statements!(e)!);
  };

  test('given bindings, creations (an owner, a repeat, an unbound agent, another origin) and updates in runs, when folded in bulk, then the read model equals folding one by one', async () => {
    const r = Array.from({ length: 6 }, (_, i) => `remote-${i}`);
    const l = Array.from({ length: 6 }, () => randomUUID());
    const events = [
      materialized(r[0]!, l[0]!),
      materialized(r[1]!, l[1]!),
      materialized(r[2]!, l[2]!),
      created(r[0]!, { name: 'Owner', handle: 'owner' }),
      created(r[1]!, { name: 'Owned', ownerAgentId: r[0] }),
      created(r[2]!, { name: 'First name' }),
      profileUpdated(r[2]!, { bio: 'a bio' }),
      created(r[2]!, { name: 'Second name', handle: 'second' }), // the later creation decides
      materialized(r[3]!, l[3]!),
      materialized(r[4]!, l[4]!),
      created(r[3]!, { name: 'Owner not bound', ownerAgentId: 'remote-unbound' }),
      created('remote-never-bound', { name: 'Nobody' }), // no binding: nothing to upgrade
      created(r[4]!, { name: 'Impostor' }, OTHER_ORIGIN), // bound under another origin: untouched
      created(r[0]!, { name: 'Owner again', handle: 'owner' }),
    ];
    const bulk = await foldAndRead(events, inBulk);
    const single = await foldAndRead(events, oneByOne);
    assert.deepEqual(bulk, single);

    // And the shared result is the intended one, not an empty table.
    const byId = new Map(bulk.agents.map((a) => [a.agent_id as string, a]));
    assert.equal(bulk.bindings.length, 5);
    assert.equal(byId.get(l[0]!)?.name, 'Owner again');
    assert.equal(byId.get(l[0]!)?.placeholder, false);
    assert.equal(byId.get(l[1]!)?.owner_agent_id, l[0]);
    assert.equal(byId.get(l[2]!)?.name, 'Second name');
    assert.equal(byId.get(l[2]!)?.remote_handle, 'second');
    assert.equal(byId.get(l[2]!)?.bio, 'a bio');
    assert.equal(byId.get(l[3]!)?.owner_agent_id, null);
    assert.equal(byId.get(l[4]!)?.placeholder, true);
    assert.equal(byId.get(l[4]!)?.kind, 'unknown');
    assert.equal(byId.get(l[5]!), undefined);
  });

  test('given a page of 200 new remote agents and their creations, when folded in bulk, then it is two statements, each row written once and not a placeholder', async () => {
    const pairs = Array.from({ length: 200 }, (_, i) => ({ remote: `page-${i}`, local: randomUUID() }));
    const events = [
      ...pairs.map((p) => materialized(p.remote, p.local)),
      ...pairs.map((p, i) => created(p.remote, { name: `Agent ${i}` })),
    ];
    const statements = agentsProjection.statementsMany!(events)!;
    assert.equal(statements.length, 2);
    const bulk = await foldAndRead(events, inBulk);
    assert.deepEqual(bulk, await foldAndRead(events, oneByOne));
    assert.equal(bulk.bindings.length, 200);
    const named = new Map(bulk.agents.map((a) => [a.agent_id as string, a]));
    pairs.forEach((p, i) => {
      assert.equal(named.get(p.local)?.name, `Agent ${i}`);
      assert.equal(named.get(p.local)?.placeholder, false);
    });
  });

  test('given a placeholder id that already has a row, when its binding is folded in bulk, then the row is kept as it was, as one by one', async () => {
    const local = randomUUID();
    await held.client.query(
      `INSERT INTO rm_agents (agent_id, kind, name, origin, created_at, updated_at)
       VALUES ($1, 'person', 'Already here', 'here', now(), now())`,
      [local],
    );
    try {
      const events = [materialized('remote-kept', local)];
      const bulk = await foldAndRead(events, inBulk);
      assert.deepEqual(bulk, await foldAndRead(events, oneByOne));
      assert.equal(bulk.agents.find((a) => a.agent_id === local)?.name, 'Already here');
    } finally {
      await held.client.query('DELETE FROM rm_agents WHERE agent_id = $1', [local]);
    }
  });

  test('given ids that already have rows (two of the origin, one not), bound in the same page and two of them created, when folded in bulk, then the created row of the origin is upgraded and the others kept, as one by one', async () => {
    const mine = randomUUID();
    const theirs = randomUUID();
    const uncreated = randomUUID();
    await held.client.query(
      `INSERT INTO rm_agents (agent_id, kind, name, origin, placeholder, created_at, updated_at)
       VALUES ($1, 'unknown', '', $3, true, now(), now()), ($2, 'person', 'Local person', 'here', false, now(), now()),
              ($4, 'person', 'Kept', $3, false, now(), now())`,
      [mine, theirs, ORIGIN, uncreated],
    );
    try {
      const events = [
        materializedMany([
          { remote: 'present-mine', local: mine },
          { remote: 'present-theirs', local: theirs },
          { remote: 'fresh-owner', local: randomUUID() },
          { remote: 'present-uncreated', local: uncreated },
        ]),
        created('present-mine', { name: 'Upgraded', handle: 'up', ownerAgentId: 'fresh-owner' }),
        created('present-theirs', { name: 'Not yours' }),
        created('fresh-owner', { name: 'Fresh owner' }),
      ];
      assert.equal(agentsProjection.statementsMany!(events)!.length, 2);
      const bulk = await foldAndRead(events, inBulk);
      assert.deepEqual(bulk, await foldAndRead(events, oneByOne));
      const byId = new Map(bulk.agents.map((a) => [a.agent_id as string, a]));
      assert.equal(byId.get(mine)?.name, 'Upgraded');
      assert.equal(byId.get(mine)?.placeholder, false);
      assert.equal(byId.get(mine)?.remote_handle, 'up');
      const owner = bulk.bindings.find((b) => b.remote_agent_id === 'fresh-owner')?.local_agent_id;
      assert.equal(byId.get(mine)?.owner_agent_id, owner);
      assert.equal(byId.get(theirs)?.name, 'Local person');
      assert.equal(byId.get(theirs)?.origin, 'here');
      assert.equal(byId.get(uncreated)?.name, 'Kept');
    } finally {
      await held.client.query('DELETE FROM rm_agents WHERE agent_id = ANY($1)', [[mine, theirs, uncreated]]);
    }
  });

  test('given agents.materialized records binding many, mixed with agent.materialized and creations, when folded in bulk, then the read model equals folding one by one and each binding is there', async () => {
    const pairs = Array.from({ length: 5 }, (_, i) => ({ remote: `many-${i}`, local: randomUUID() }));
    const events = [
      materializedMany(pairs.slice(0, 2)),
      materialized(pairs[2]!.remote, pairs[2]!.local),
      materializedMany(pairs.slice(3)),
      ...pairs.map((p, i) => created(p.remote, { name: `Many ${i}` })),
    ];
    // The three records fold as one run with the creations after them: the bindings' INSERT, then the
    // rows written once.
    assert.equal(agentsProjection.statementsMany!(events)!.length, 2);
    const bulk = await foldAndRead(events, inBulk);
    assert.deepEqual(bulk, await foldAndRead(events, oneByOne));
    const boundTo = new Map(bulk.bindings.map((b) => [b.remote_agent_id as string, b.local_agent_id]));
    const named = new Map(bulk.agents.map((a) => [a.agent_id as string, a]));
    pairs.forEach((p, i) => {
      assert.equal(boundTo.get(p.remote), p.local);
      assert.equal(named.get(p.local)?.name, `Many ${i}`);
      assert.equal(named.get(p.local)?.placeholder, false);
    });
  });
});
