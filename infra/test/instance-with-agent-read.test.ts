// Every command reads the instance and its acting agent in one query (read-models.ts instanceWithAgent);
// it must answer exactly what the two separate reads answer.
import { holdConnectionForSuite } from '@tributary/test';
import { createReadModels } from '@tributary/projections';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, test } from 'vitest';

const primary = randomUUID();
const person = randomUUID();
const persona = randomUUID();
const deleted = randomUUID();

describe('the instance read with its acting agent', () => {
  const held = holdConnectionForSuite();
  let read: ReturnType<typeof createReadModels>;
  beforeAll(() => {
    read = createReadModels(held.client);
  });

  test('given no instance yet, then both are null, whichever agent is asked for', async () => {
    assert.deepEqual(await read.instance.withAgent(null), { instance: null, agent: null });
    assert.deepEqual(await read.instance.withAgent(person), { instance: null, agent: null });
  });

  test('given an instance, agents and a deleted persona, then each read equals instance() with agent()', async () => {
    await held.client.query(
      `INSERT INTO rm_instance (instance_id, role, name, base_url, primary_agent_id)
       VALUES ($1, 'group', 'Weir Keepers', 'https://weir.example', $2)`,
      [randomUUID(), primary],
    );
    await held.client.query(
      `INSERT INTO rm_instance_controllers (account_id, agent_id, granted_at)
       VALUES ('acct-2', $1, '2026-11-02T00:00:00Z'), ('acct-1', $1, '2026-11-01T00:00:00Z')`,
      [person],
    );
    await held.client.query(
      `INSERT INTO rm_agents (agent_id, kind, name, handle, owner_agent_id, bio, avatar_url, placeholder, origin,
                              created_at, updated_at, deleted_at)
       VALUES ($1, 'group', 'Weir Keepers', 'weir', NULL, NULL, NULL, false, NULL, now(), now(), NULL),
              ($2, 'person', 'Ada', 'ada', NULL, 'Keeps bees', 'https://a.example/ada.png', false, NULL,
               '2026-11-01T10:00:00.123Z', now(), NULL),
              ($3, 'persona', 'Ada cooks', 'ada_cooks', $2, NULL, NULL, false, NULL, now(), now(), NULL),
              ($4, 'persona', 'Ada rows', 'ada_rows', $2, NULL, NULL, false, NULL, now(), now(), now())`,
      [primary, person, persona, deleted],
    );
    const instance = await read.instance.get();
    assert.ok(instance);
    assert.deepEqual(instance.controllers, ['acct-1', 'acct-2']);

    for (const id of [person, persona]) {
      const agent = await read.agents.agent(id);
      assert.ok(agent);
      assert.deepEqual(await read.instance.withAgent(id), { instance, agent });
    }
    // null asks for the primary agent.
    assert.deepEqual(await read.instance.withAgent(null), {
      instance,
      agent: await read.agents.agent(primary),
    });
    // A deleted persona and an unknown id read as no agent, with the instance still there.
    assert.equal(await read.agents.agent(deleted), null);
    assert.deepEqual(await read.instance.withAgent(deleted), { instance, agent: null });
    assert.deepEqual(await read.instance.withAgent(randomUUID()), { instance, agent: null });
  });

  test('given thousands of agents and no statistics, then each read probes rm_agents by its index, for an id and for the primary agent', async () => {
    await held.client.query(
      `INSERT INTO rm_agents (agent_id, kind, name, created_at, updated_at)
       SELECT 'filler-' || i, 'person', 'Filler ' || i, now(), now() FROM generate_series(1, 20000) i`,
    );
    const scans = async () => {
      const { rows } = await held.client.query<{ seq: string; idx: string }>(
        `SELECT seq_scan AS seq, idx_scan AS idx FROM pg_stat_xact_user_tables WHERE relname = 'rm_agents'`,
      );
      return { seq: Number(rows[0]!.seq), idx: Number(rows[0]!.idx) };
    };
    await held.client.query('BEGIN');
    try {
      const before = await scans();
      assert.equal((await read.instance.withAgent(null)).agent?.agentId, primary);
      assert.equal((await read.instance.withAgent(person)).agent?.agentId, person);
      const after = await scans();
      assert.equal(after.seq - before.seq, 0, 'no sequential scan of rm_agents');
      assert.equal(after.idx - before.idx, 2, 'one index probe per read');
    } finally {
      await held.client.query('COMMIT');
    }
  });
});
