// The agents projection's bulk profile updates (migration 0013) and imported creations (migration 0015)
// must reach rm_agents through its indexes at every size, also before the table has statistics: as plain
// statements they read all of it per batch at some thousands of agents.
import { holdConnectionForSuite } from '@tributary/test';
import { agentsProjection, runStatements, type ProjectedEvent } from '@tributary/projections';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, test } from 'vitest';

const AGENTS = 6000;

describe('rm_agents bulk profile updates before statistics', () => {
  // One connection throughout: PL/pgSQL keeps its plans per connection.
  const held = holdConnectionForSuite();
  const origin = 'peer-origin';
  beforeAll(async () => {
    // Local agents, and as many remote ones bound to local ids; no ANALYZE, as on a fresh instance.
    await held.client.query(
      `INSERT INTO rm_agents (agent_id, kind, name, origin, created_at, updated_at)
       SELECT 'local-' || i, 'person', 'Local ' || i, 'here', now(), now() FROM generate_series(1, $1) i`,
      [AGENTS],
    );
    await held.client.query(
      `INSERT INTO rm_agents (agent_id, kind, name, origin, created_at, updated_at)
       SELECT 'bound-' || i, 'person', 'Remote ' || i, $2, now(), now() FROM generate_series(1, $1) i`,
      [AGENTS, origin],
    );
    await held.client.query(
      `INSERT INTO rm_remote_agents (origin, remote_agent_id, local_agent_id, bound_at)
       SELECT $2, 'remote-' || i, 'bound-' || i, now() FROM generate_series(1, $1) i`,
      [AGENTS, origin],
    );
  });

  const update = (stream: string, bio: string, imported: boolean): ProjectedEvent => ({
    id: randomUUID(),
    type: 'agent.profile_updated',
    origin: imported ? origin : 'here',
    stream,
    streamVersion: 2,
    actorId: stream.slice('agent-'.length),
    occurredAt: new Date().toISOString(),
    data: { bio },
    ...(imported && { imported: true as const }),
  });

  /** Sequential and index scans of the two tables so far in this backend (counted from here on). */
  const scanCounts = async () => {
    const { rows } = await held.client.query<{ relname: string; seq_scan: string; idx_scan: string | null }>(
      `SELECT relname, seq_scan, idx_scan FROM pg_stat_xact_user_tables
       WHERE relname IN ('rm_agents', 'rm_remote_agents')`,
    );
    return new Map(rows.map((r) => [r.relname, { seq: Number(r.seq_scan), idx: Number(r.idx_scan ?? 0) }]));
  };

  /** Runs the projection's bulk statements in a transaction; the scans they made on each table. */
  async function applyCounting(events: ProjectedEvent[]) {
    await held.client.query('BEGIN');
    try {
      // Counted as a difference: the view also holds earlier transactions' counts not yet flushed.
      const before = await scanCounts();
      await runStatements(held.client, agentsProjection.statementsMany!(events)!);
      const after = await scanCounts();
      const made = (table: string) => ({
        seq: (after.get(table)?.seq ?? 0) - (before.get(table)?.seq ?? 0),
        idx: (after.get(table)?.idx ?? 0) - (before.get(table)?.idx ?? 0),
      });
      return { rmAgents: made('rm_agents'), rmRemoteAgents: made('rm_remote_agents') };
    } finally {
      await held.client.query('COMMIT');
    }
  }

  test('given thousands of agents and no statistics, when 100 local profile updates are projected, then rm_agents is probed by index, never read whole, and each bio lands', async () => {
    const ids = Array.from({ length: 100 }, (_, i) => `local-${i * 37 + 1}`);
    const scans = await applyCounting(ids.map((id) => update(`agent-${id}`, `bio of ${id}`, false)));
    assert.equal(scans.rmAgents.seq, 0);
    assert.ok(scans.rmAgents.idx > 0);
    const { rows } = await held.client.query<{ agent_id: string; bio: string }>(
      'SELECT agent_id, bio FROM rm_agents WHERE agent_id = ANY($1)',
      [ids],
    );
    assert.equal(rows.length, 100);
    for (const r of rows) assert.equal(r.bio, `bio of ${r.agent_id}`);
  });

  test('given thousands of bound remote agents and no statistics, when 100 imported profile updates are projected, then neither table is read whole and each bio lands on the bound local agent', async () => {
    const remotes = Array.from({ length: 100 }, (_, i) => `remote-${i * 41 + 3}`);
    const scans = await applyCounting(remotes.map((r) => update(`agent-${r}`, `imported bio of ${r}`, true)));
    assert.equal(scans.rmAgents.seq, 0);
    assert.equal(scans.rmRemoteAgents.seq, 0);
    assert.ok(scans.rmAgents.idx > 0 && scans.rmRemoteAgents.idx > 0);
    const { rows } = await held.client.query<{ agent_id: string; bio: string }>(
      'SELECT agent_id, bio FROM rm_agents WHERE agent_id = ANY($1)',
      [remotes.map((r) => r.replace('remote-', 'bound-'))],
    );
    assert.equal(rows.length, 100);
    for (const r of rows) assert.equal(r.bio, `imported bio of ${r.agent_id.replace('bound-', 'remote-')}`);
  });

  test('given thousands of bound remote agents and no statistics, when 100 imported creations are projected, then neither table is read whole and each bound agent is upgraded', async () => {
    const remotes = Array.from({ length: 100 }, (_, i) => `remote-${i * 43 + 5}`);
    const events: ProjectedEvent[] = remotes.map((remote) => ({
      id: randomUUID(),
      type: 'agent.created',
      origin,
      stream: `agent-${remote}`,
      streamVersion: 1,
      actorId: remote,
      occurredAt: new Date().toISOString(),
      data: { agentId: remote, kind: 'group', name: `created ${remote}`, ownerAgentId: 'remote-1' },
      imported: true as const,
    }));
    const scans = await applyCounting(events);
    assert.equal(scans.rmAgents.seq, 0);
    assert.equal(scans.rmRemoteAgents.seq, 0);
    assert.ok(scans.rmAgents.idx > 0 && scans.rmRemoteAgents.idx > 0);
    const { rows } = await held.client.query<{
      agent_id: string;
      name: string;
      kind: string;
      owner_agent_id: string;
    }>('SELECT agent_id, name, kind, owner_agent_id FROM rm_agents WHERE agent_id = ANY($1)', [
      remotes.map((r) => r.replace('remote-', 'bound-')),
    ]);
    assert.equal(rows.length, 100);
    for (const r of rows) {
      assert.equal(r.name, `created ${r.agent_id.replace('bound-', 'remote-')}`);
      assert.equal(r.kind, 'group');
      assert.equal(r.owner_agent_id, 'bound-1');
    }
  });
});
