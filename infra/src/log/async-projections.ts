// Async projections fold the sequenced log behind a durable checkpoint. Each batch and its checkpoint
// commit together, and the checkpoint row is locked, so two processes never fold the same events.
import { foldsEvent, type ProjectedEvent, type Projection } from '@tributary/projections';
import type { Pool } from 'pg';
import type { Logger } from 'pino';
import { escapeLiteral, inlineStatement } from '../postgres/one-trip-append.js';
import { projectedFrom, type LogRow } from './event-rows.js';
import { checkOutClient } from '../postgres/held-client.js';

/** The statements of a batch as one SQL text; null when the projection cannot say them for some event. */
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

/** Events folded per batch by a projection that reads them in the process; by one that folds in SQL. */
const BATCH = 500;
const SQL_FOLD_BATCH = 5000;

/** The batch size the runner uses for this projection. */
const asyncBatchSize = (projection: Projection): number => (projection.foldSql ? SQL_FOLD_BATCH : BATCH);

/**
 * Folds the next batch behind the projection's checkpoint and moves the checkpoint, all in one
 * transaction; returns how many sequenced events it passed (a short batch means it caught up).
 */
export async function runAsyncProjectionBatch(
  pool: Pool,
  projection: Projection,
  limit = asyncBatchSize(projection),
): Promise<number> {
  if (projection.foldSql) return foldInDatabase(pool, projection, projection.foldSql, limit);
  const client = await checkOutClient(pool);
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
          [since, limit],
        )
      : await client.query<LogRow>(
          `SELECT s.seq, e.position, e.stream, e.actor_id, e.envelope FROM event_sequence s JOIN events e ON e.position = s.position
           WHERE s.seq > $1 ORDER BY s.seq LIMIT $2`,
          [since, limit],
        );
    const events = rows
      .map((r) => ('envelope' in r ? projectedFrom(r) : projectedFromColumns(r)))
      .filter((e) => foldsEvent(projection, e));
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

/**
 * A batch folded by the projection's own SQL, as one multi-statement query (one implicit transaction):
 * the checkpoint row is created if need be and locked (so two processes never fold the same events),
 * then one statement reads the next sequenced events behind it, folds the ones the projection handles
 * and moves the checkpoint past all of them. The events are fetched by position one by one (the
 * LATERAL with OFFSET 0 cannot become a join): the checkpoint is a subquery, so the planner cannot see
 * how few events a pass usually finds, and as a join it chose a sequential scan of the whole log on
 * every pass of a log of some tens of thousands of events.
 */
async function foldInDatabase(pool: Pool, projection: Projection, foldSql: string, limit: number) {
  if (!Number.isSafeInteger(limit) || limit < 1) throw new Error('async projection: bad batch size');
  const name = escapeLiteral(projection.name);
  const handled = projection.handles.includes('*')
    ? ''
    : `WHERE type IN (${projection.handles.map(escapeLiteral).join(', ')})`;
  const results = (await pool.query(
    `INSERT INTO projection_checkpoints (name, seq) VALUES (${name}, 0) ON CONFLICT (name) DO NOTHING;
     SELECT 1 FROM projection_checkpoints WHERE name = ${name} FOR UPDATE;
     WITH sequenced AS MATERIALIZED (
       SELECT s.seq, e.id, e.type, e.origin, e.stream, e.stream_version, e.actor_id, e.occurred_at
       FROM (SELECT seq, position FROM event_sequence
             WHERE seq > (SELECT seq FROM projection_checkpoints WHERE name = ${name})
             ORDER BY seq LIMIT ${limit}) s
       CROSS JOIN LATERAL (SELECT * FROM events e WHERE e.position = s.position OFFSET 0) e
     ), batch AS (SELECT * FROM sequenced ${handled}),
     folded AS (${foldSql}),
     moved AS (
       UPDATE projection_checkpoints SET seq = m.last, updated_at = now()
       FROM (SELECT max(seq) AS last FROM sequenced) m WHERE name = ${name} AND m.last IS NOT NULL
     )
     SELECT count(*)::int AS n FROM sequenced`,
  )) as unknown as { rows: { n?: number }[] }[];
  return results[results.length - 1]!.rows[0]!.n!;
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
        // A short batch read everything sequenced so far: caught up.
        while (!stopped && (await runAsyncProjectionBatch(pool, p)) === asyncBatchSize(p)) {
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

/**
 * The async projections of a process that does not fold them (`--role api`): a worker's runner does.
 * `catchUp` waits for it, by the checkpoints, up to the sequenced log's head at the call.
 */
export function passiveAsyncProjections(
  pool: Pool,
  projections: readonly Projection[],
  timeoutMs = 30_000,
): AsyncProjectionRunner {
  const names = projections.filter((p) => p.mode === 'async').map((p) => p.name);
  let stopped = false;
  return {
    poke() {},
    async catchUp() {
      const { rows } = await pool.query<{ s: string | null }>('SELECT max(seq) AS s FROM event_sequence');
      const head = Number(rows[0]?.s ?? 0);
      const until = Date.now() + timeoutMs;
      while (!stopped && names.length > 0) {
        const behind = await pool.query(
          `SELECT 1 FROM unnest($1::text[]) n(name)
           LEFT JOIN projection_checkpoints c ON c.name = n.name
           WHERE coalesce(c.seq, 0) < $2 LIMIT 1`,
          [names, head],
        );
        if (behind.rowCount === 0) return;
        if (Date.now() > until) throw new Error('async projections did not catch up: is a worker running?');
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async stop() {
      stopped = true;
    },
  };
}
