// A consumer of the log that wants a few event types asks the database to walk the sequenced events
// and send back only those, with how far it walked: the rest of the log (a catch-up's thousands of
// imports) never crosses the wire (docs/architecture.md, side effects).
import type { Pool, PoolClient } from 'pg';

export interface SequencedWalk<Row> {
  /** Sequenced events walked (at most `scan`). */
  scanned: number;
  /** The sequence of the last event walked; null when none followed `since`. */
  scannedTo: number | null;
  /** The events of the type among them, in sequence order (at most `limit`), with their `seq`. */
  rows: (Row & { seq: string })[];
}

/**
 * Walks up to `scan` sequenced events after `since` and answers those of `type` (at most `limit`), with
 * the `columns` of `events e` named (trusted text: callers pass constants).
 */
export async function walkSequencedOfType<Row extends Record<string, unknown>>(
  db: Pool | PoolClient,
  o: { since: number | string; scan: number; type: string; columns: string; limit?: number },
): Promise<SequencedWalk<Row>> {
  const { rows } = await db.query<Row & { scanned: string; scanned_to: string | null; seq: string | null }>(
    `WITH scan AS (SELECT s.seq, s.position FROM event_sequence s WHERE s.seq > $1 ORDER BY s.seq LIMIT $2)
     SELECT (SELECT count(*) FROM scan) AS scanned, (SELECT max(seq) FROM scan) AS scanned_to, m.*
     FROM (SELECT 1) AS one LEFT JOIN LATERAL (
       SELECT scan.seq, ${o.columns} FROM scan JOIN events e ON e.position = scan.position
       WHERE e.type = $3 ORDER BY scan.seq LIMIT $4
     ) AS m ON true
     ORDER BY m.seq`,
    [o.since, o.scan, o.type, o.limit ?? o.scan],
  );
  const first = rows[0]!;
  return {
    scanned: Number(first.scanned),
    scannedTo: first.scanned_to === null ? null : Number(first.scanned_to),
    rows: rows.filter((r): r is typeof r & { seq: string } => r.seq !== null),
  };
}
