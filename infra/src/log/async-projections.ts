// Async projections fold the sequenced log behind a durable checkpoint. Each batch and its checkpoint
// commit together, and the checkpoint row is locked, so two processes never fold the same events.
import type { ProjectedEvent, Projection } from '@tributary/projections';
import type { Pool } from 'pg';
import type { Logger } from 'pino';
import { inlineStatement } from '../postgres/one-trip-append.js';
import { projectedFrom, type LogRow } from './event-rows.js';

const BATCH = 500;

/** Folds one batch; returns how many events it folded. */
function batchSql(events: readonly ProjectedEvent[], projection: Projection): string | null {
  if (!projection.statements || events.length === 0) return null;
  const sql: string[] = [];
  for (const e of events) {
    const statements = projection.statements(e);
    if (!statements) return null;
    for (const s of statements) {
      const inlined = inlineStatement(s.text, s.values);
      if (inlined === null) return null;
      sql.push(inlined);
    }
  }
  return sql.join(';\n');
}

/** A log row's columns, without the envelope (for `metadataOnly` projections). */
interface MetadataRow {
  seq: string;
  id: string;
  type: string;
  origin: string;
  stream: string;
  stream_version: number;
  actor_id: string;
  occurred_at: Date;
}

/** What a `metadataOnly` projection sees: the columns, local stream and version, and no data. */
const projectedFromColumns = (r: MetadataRow): ProjectedEvent => ({
  id: r.id,
  type: r.type,
  origin: r.origin,
  stream: r.stream,
  streamVersion: r.stream_version,
  actorId: r.actor_id,
  occurredAt: r.occurred_at.toISOString(),
  data: {},
  sequence: Number(r.seq),
});

export async function runAsyncProjectionBatch(pool: Pool, projection: Projection): Promise<number> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query(
      'INSERT INTO projection_checkpoints (name, seq) VALUES ($1, 0) ON CONFLICT (name) DO NOTHING',
      [projection.name],
    );
    const cp = await client.query<{ seq: string }>(
      'SELECT seq FROM projection_checkpoints WHERE name = $1 FOR UPDATE',
      [projection.name],
    );
    const since = Number(cp.rows[0]!.seq);
    const { rows } = projection.metadataOnly
      ? await client.query<MetadataRow>(
          `SELECT s.seq, e.id, e.type, e.origin, e.stream, e.stream_version, e.actor_id, e.occurred_at
           FROM event_sequence s JOIN events e ON e.position = s.position
           WHERE s.seq > $1 ORDER BY s.seq LIMIT $2`,
          [since, BATCH],
        )
      : await client.query<LogRow>(
          `SELECT s.seq, e.position, e.stream, e.actor_id, e.envelope FROM event_sequence s JOIN events e ON e.position = s.position
           WHERE s.seq > $1 ORDER BY s.seq LIMIT $2`,
          [since, BATCH],
        );
    const all = projection.handles.includes('*');
    const events = rows
      .map((r) => ('envelope' in r ? projectedFrom(r) : projectedFromColumns(r)))
      .filter((e) => all || projection.handles.includes(e.type));
    // One round trip for the whole batch when the projection can say its statements, so the
    // transaction (which holds back every reader's snapshot horizon) stays short.
    if (projection.applyMany && events.length > 0) await projection.applyMany(client, events);
    else {
      const batch = batchSql(events, projection);
      if (batch) await client.query(batch);
      else for (const event of events) await projection.apply(client, event);
    }
    if (rows.length > 0)
      await client.query('UPDATE projection_checkpoints SET seq = $2, updated_at = now() WHERE name = $1', [
        projection.name,
        rows[rows.length - 1]!.seq,
      ]);
    await client.query('COMMIT');
    return rows.length;
  } catch (e) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw e;
  } finally {
    client.release();
  }
}

export interface AsyncProjectionRunner {
  poke(): void;
  /** Folds until every async projection has caught up with the sequenced log. */
  catchUp(): Promise<void>;
  stop(): Promise<void>;
}

export function startAsyncProjections(
  pool: Pool,
  projections: readonly Projection[],
  logger: Logger,
  intervalMs = 500,
): AsyncProjectionRunner {
  const asyncOnes = projections.filter((p) => p.mode === 'async');
  let running: Promise<void> | null = null;
  let stopped = false;
  const pass = async () => {
    for (const p of asyncOnes) {
      try {
        while (!stopped && (await runAsyncProjectionBatch(pool, p)) > 0) {
          /* keep folding */
        }
      } catch (err) {
        if (!stopped) logger.warn({ err, projection: p.name }, 'async projection failed; will retry');
      }
    }
  };
  const poke = () => {
    if (stopped || running) return;
    running = pass().finally(() => {
      running = null;
    });
  };
  const timer = setInterval(poke, intervalMs);
  timer.unref();
  return {
    poke,
    async catchUp() {
      while (running) await running;
      running = pass().finally(() => {
        running = null;
      });
      await running;
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      while (running) await running;
    },
  };
}
