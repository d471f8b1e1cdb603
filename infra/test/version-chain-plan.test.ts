// The version-chain trigger must probe the (stream, stream_version) index per new row at every size of
// the log, including when the plan PL/pgSQL keeps for a connection was made while the log was tiny
// (migration 0012): a plan that reads the whole log would make every append slower as the log grows.
// The NOT EXISTS form before 0012 failed this on PostgreSQL 17 (the embedded server) in both phases;
// PostgreSQL 15 happened to plan it with index probes.
import { holdConnectionForSuite } from '@tributary/test';
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';

describe('events_version_chain at scale', () => {
  // One connection throughout: PL/pgSQL keeps its plans per connection.
  const held = holdConnectionForSuite();

  /** Inserts versions `from`…`to` of each stream as one statement (so one run of the trigger). */
  const insert = (streams: string[], from: number, to = from) =>
    held.client.query(
      `INSERT INTO events (id, origin, stream, stream_version, type, actor_id, occurred_at, feed, envelope)
       SELECT gen_random_uuid()::text, 'origin-1', s, v, 'handle.claimed', 'actor-1', now(), false, '{}'
       FROM unnest($1::text[]) AS s, generate_series($2::int, $3::int) AS v`,
      [streams, from, to],
    );

  const eventScans = async () => {
    const { rows } = await held.client.query<{ seq_scan: string; idx_scan: string | null }>(
      `SELECT seq_scan, idx_scan FROM pg_stat_xact_user_tables WHERE relname = 'events'`,
    );
    return { seq: Number(rows[0]?.seq_scan ?? 0), idx: Number(rows[0]?.idx_scan ?? 0) };
  };

  test('given a connection whose first append met an empty log, when the log has grown to thousands of events, then an append probes the index and never scans the log', async () => {
    // The connection's first appends: the trigger's plan is made now, against a log of a few rows.
    await insert(['first'], 1);
    await insert(['first'], 2);
    const streams = Array.from({ length: 4000 }, (_, i) => `stream-${i}`);
    await insert(streams, 1);
    // Then as the log stands, and again once statistics exist (autovacuum's ANALYZE re-plans).
    for (const [phase, version] of [
      ['as planned on the tiny log', 2],
      ['after ANALYZE', 3],
    ] as const) {
      if (version === 3) await held.client.query('ANALYZE events');
      await held.client.query('BEGIN');
      try {
        // Counted as a difference: the view also holds earlier transactions' counts not yet flushed.
        const before = await eventScans();
        await insert(streams.slice(0, 100), version);
        const after = await eventScans();
        assert.equal(after.seq - before.seq, 0, `${phase}: the append read the log sequentially`);
        assert.ok(
          after.idx - before.idx >= 100,
          `${phase}: ${after.idx - before.idx} index scans for 100 rows`,
        );
      } finally {
        await held.client.query('COMMIT');
      }
    }
  });

  test('given a stream at version 1, when a statement inserts its version 3, then the chain check still refuses it', async () => {
    await insert(['gap'], 1);
    await assert.rejects(insert(['gap'], 3), (e: { code?: string; constraint?: string }) => {
      assert.equal(e.code, '23514');
      assert.equal(e.constraint, 'events_version_chain');
      return true;
    });
    const { rows } = await held.client.query(`SELECT stream_version FROM events WHERE stream = 'gap'`);
    assert.deepEqual(
      rows.map((r: { stream_version: number }) => r.stream_version),
      [1],
    );
  });
});
