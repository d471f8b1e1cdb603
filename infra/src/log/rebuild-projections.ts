// Rebuilds read models from the log. Inline projections rebuild inside one transaction that holds
// their tables exclusively: appends that would touch them wait, then apply on top of the rebuilt state.
import { foldsEvent, type Projection } from '@tributary/projections';
import type { Pool } from 'pg';
import { sequenceEvents } from '../postgres/pg-event-store.js';
import { projectedFrom, type LogRow } from './event-rows.js';
import { checkOutClient } from '../postgres/held-client.js';

const BATCH = 2000;

interface RebuildProgress {
  (done: number, total: number): void;
}

export async function rebuildProjection(
  pool: Pool,
  projection: Projection,
  progress?: RebuildProgress,
): Promise<number> {
  const client = await checkOutClient(pool);
  try {
    await client.query('BEGIN');
    await client.query(`LOCK TABLE ${projection.tables.join(', ')} IN ACCESS EXCLUSIVE MODE`);
    if (projection.mode === 'async') {
      await client.query(
        `INSERT INTO projection_checkpoints (name, seq) VALUES ($1, 0)
         ON CONFLICT (name) DO UPDATE SET seq = 0, updated_at = now()`,
        [projection.name],
      );
      await client.query('SELECT 1 FROM projection_checkpoints WHERE name = $1 FOR UPDATE', [
        projection.name,
      ]);
    }
    await client.query(`TRUNCATE ${projection.tables.join(', ')}`);
    // Inline: every committed event, in the sequencer's (tx_id, position) order. Async: the sequenced log.
    const total = Number(
      (
        await client.query<{ n: string }>(
          projection.mode === 'inline'
            ? 'SELECT count(*) AS n FROM events'
            : 'SELECT count(*) AS n FROM event_sequence',
        )
      ).rows[0]!.n,
    );
    let done = 0;
    let lastTx = '0';
    let lastPosition = '0';
    let lastSeq = '0';
    for (;;) {
      const { rows } =
        projection.mode === 'inline'
          ? await client.query<LogRow>(
              // Ordered by the xid8 column, not the text alias (which sorts '1000' before '999' and
              // made the keyset below fold the later transactions twice).
              `SELECT e.position, e.tx_id::text AS tx_id, e.stream, e.actor_id, e.envelope FROM events e
               WHERE (e.tx_id, e.position) > ($1::xid8, $2::bigint) ORDER BY e.tx_id, e.position LIMIT $3`,
              [lastTx, lastPosition, BATCH],
            )
          : await client.query<LogRow>(
              `SELECT s.seq, e.position, e.stream, e.actor_id, e.envelope FROM event_sequence s JOIN events e ON e.position = s.position
               WHERE s.seq > $1 ORDER BY s.seq LIMIT $2`,
              [lastSeq, BATCH],
            );
      if (rows.length === 0) break;
      for (const row of rows) {
        const event = projectedFrom(row);
        if (foldsEvent(projection, event)) await projection.apply(client, event);
      }
      const last = rows[rows.length - 1]!;
      lastTx = last.tx_id ?? lastTx;
      lastPosition = last.position;
      lastSeq = last.seq ?? lastSeq;
      done += rows.length;
      progress?.(done, total);
    }
    if (projection.mode === 'async')
      await client.query('UPDATE projection_checkpoints SET seq = $2, updated_at = now() WHERE name = $1', [
        projection.name,
        lastSeq,
      ]);
    await client.query('COMMIT');
    return done;
  } catch (e) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw e;
  } finally {
    client.release();
  }
}

export async function rebuildProjections(
  pool: Pool,
  projections: readonly Projection[],
  progress?: (name: string, done: number, total: number) => void,
): Promise<Record<string, number>> {
  await sequenceEvents(pool);
  const out: Record<string, number> = {};
  for (const p of projections)
    out[p.name] = await rebuildProjection(pool, p, (d, t) => progress?.(p.name, d, t));
  return out;
}
