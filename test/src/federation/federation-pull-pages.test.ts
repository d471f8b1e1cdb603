// A pull of a backlog several pages long, between two real instances on loopback: each next page of the
// peer's export is asked for while the page before it is imported (services/src/federation/page-prefetch.ts),
// a page fetched ahead is used only where the cursor really stands, and every event arrives exactly once.
import { composedFor, federationComposed, syncPeer } from '@tributary/services';
import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { appendNewAgents } from '../harness/index.js';
import { register, startNode, type Node } from './federation-helpers.js';

const settings = { retryBaseMs: 1000, pullIntervalMs: 60_000 };
const BACKLOG = 1_250; // three pages of at most 500

describe('pulling a backlog of several pages', () => {
  let a: Node; // the origin, holding the backlog
  let b: Node; // the receiver, pulling it
  /** What happened, in order: B's export requests (by `since`) and the ends of B's pull attempts. */
  const steps: string[] = [];

  beforeAll(async () => {
    [a, b] = await Promise.all([startNode('group', 'Origin'), startNode('global', 'Receiver')]);
    await register(b, a);
    await register(a, b);
    await appendNewAgents(a.instance.instance.services, BACKLOG, 'Backlog');
    await a.instance.instance.sequencer.drain(60_000);
    await b.instance.instance.pool.query(
      `INSERT INTO federation_sync_cursors (peer_id, direction, position, next_attempt_at, created_at, last_success_at)
       VALUES ($1, 'pull', 0, now(), now(), now())`,
      [a.id],
    );
    // Every export request B sends to A, recorded as it leaves.
    const client = b.instance.instance.services.federation!.client!;
    const exportEventsText = client.exportEventsText.bind(client);
    client.exportEventsText = (baseUrl, query) => {
      steps.push(`fetch ${query.since}`);
      return exportEventsText(baseUrl, query);
    };
  });
  afterAll(async () => {
    await Promise.all([a?.instance.destroy(), b?.instance.destroy()]);
  });

  /** Pull attempts until B has nothing more to take; the positions they moved the cursor to. */
  const pullToTheEnd = async () => {
    const positions: number[] = [];
    for (;;) {
      const outcome = await syncPeer(
        composedFor(b.instance.instance.services, federationComposed),
        a.id,
        'pull',
        settings,
      );
      assert.ok(outcome && outcome.kind === 'answered', JSON.stringify(outcome));
      steps.push(`imported up to ${outcome.position}`);
      positions.push(outcome.position);
      if (!outcome.more) return positions;
    }
  };

  /** A's feed events on B: each must be there exactly once. */
  const assertEachOnce = async () => {
    const { rows: ids } = await a.instance.instance.pool.query<{ id: string }>(
      'SELECT id FROM events WHERE feed',
    );
    const { rows: held } = await b.instance.instance.pool.query<{ id: string; n: string }>(
      'SELECT id, count(*) AS n FROM events WHERE origin = $1 GROUP BY id',
      [a.id],
    );
    const count = new Map(held.map((r) => [r.id, Number(r.n)]));
    assert.ok(ids.length > BACKLOG);
    for (const { id } of ids) assert.equal(count.get(id), 1, `event ${id} of A is on B exactly once`);
    // Each agent of A is bound on B exactly once, by one agents.materialized of B's per imported page
    // (on B's stream of A's bindings), naming the binding's local id.
    const { rows: bindings } = await b.instance.instance.pool.query<{ remote: string; local: string }>(
      'SELECT remote_agent_id AS remote, local_agent_id AS local FROM rm_remote_agents WHERE origin = $1',
      [a.id],
    );
    const { rows: records } = await b.instance.instance.pool.query<{ id: string; version: number }>(
      `SELECT id, stream_version AS version FROM events
       WHERE type = 'agents.materialized' AND origin = $1 AND stream = $2 ORDER BY stream_version`,
      [b.id, `bindings-${a.id}`],
    );
    const { rows: recorded } = await b.instance.instance.pool.query<{ remote: string; local: string }>(
      `SELECT x ->> 'remoteAgentId' AS remote, x ->> 'agentId' AS local
       FROM events e, jsonb_array_elements(e.envelope::jsonb -> 'data' -> 'bindings') x
       WHERE e.type = 'agents.materialized' AND e.origin = $1 AND e.envelope::jsonb -> 'data' ->> 'origin' = $2`,
      [b.id, a.id],
    );
    assert.equal(
      await b.instance.instance.pool
        .query(`SELECT 1 FROM events WHERE type = 'agent.materialized'`)
        .then((r) => r.rowCount),
      0,
      'no agent.materialized per agent',
    );
    // One record per page that bound agents (three pages), numbered 1, 2, 3 on the stream.
    assert.deepEqual(
      records.map((r) => Number(r.version)),
      [1, 2, 3],
    );
    const boundTo = new Map(bindings.map((r) => [r.remote, r.local]));
    assert.ok(recorded.length >= BACKLOG);
    assert.equal(new Set(recorded.map((r) => r.remote)).size, recorded.length, 'one binding per agent');
    assert.equal(recorded.length, bindings.length, 'every binding recorded');
    for (const r of recorded) assert.equal(boundTo.get(r.remote), r.local, `${r.remote} bound as recorded`);
  };

  test('given B a backlog of three pages behind, when it pulls, then each next page is asked for before the page before it is imported, once, and every event arrives once', async () => {
    const positions = await pullToTheEnd();
    assert.equal(positions.length, 3);
    const [p1, p2, p3] = positions as [number, number, number];
    assert.deepEqual(steps, [
      'fetch 0',
      `fetch ${p1}`, // asked for while page 1 was being imported
      `imported up to ${p1}`,
      `fetch ${p2}`, // while page 2 was
      `imported up to ${p2}`,
      `imported up to ${p3}`, // the last page: nothing more to ask for
    ]);
    await assertEachOnce();
  });

  test('given a page fetched ahead, when the cursor was moved meanwhile, then that page is not used: the pull asks where the cursor stands, and nothing is imported twice', async () => {
    const setCursor = (position: number) =>
      b.instance.instance.pool.query(
        `UPDATE federation_sync_cursors SET position = $2 WHERE peer_id = $1 AND direction = 'pull'`,
        [a.id, position],
      );
    await setCursor(0);
    steps.length = 0;
    const first = await syncPeer(
      composedFor(b.instance.instance.services, federationComposed),
      a.id,
      'pull',
      settings,
    );
    assert.ok(first && first.kind === 'answered' && first.more && first.duplicates === 500);
    // Page 2 is on its way; another process (as it were) moves the cursor back to the start.
    await setCursor(0);
    steps.length = 0;
    const positions = await pullToTheEnd();
    assert.equal(steps[0], 'fetch 0', 'the page fetched ahead was dropped, the pull asked anew');
    assert.equal(positions.length, 3);
    await assertEachOnce();
  });

  test('given the backlog pulled, when B’s log is verified and its agents projection rebuilt from zero, then it verifies and the bindings come back the same', async () => {
    const { verifyLog, rebuildProjections } = await import('@tributary/infra');
    const { agentsProjection } = await import('@tributary/projections');
    const pool = b.instance.instance.pool;
    const report = await verifyLog(pool);
    assert.equal(report.ok, true, JSON.stringify(report.firstBad));
    const snapshot = async () =>
      (
        await pool.query(
          `SELECT (SELECT json_agg(r ORDER BY origin, remote_agent_id) FROM rm_remote_agents r) AS bindings,
                  (SELECT json_agg(x ORDER BY agent_id) FROM (SELECT agent_id, kind, name, placeholder, origin
                     FROM rm_agents) x) AS agents`,
        )
      ).rows[0] as { bindings: unknown[]; agents: unknown[] };
    const before = await snapshot();
    assert.ok(before.bindings.length >= BACKLOG);
    await rebuildProjections(pool, [agentsProjection]);
    assert.deepEqual(await snapshot(), before);
  });
});
