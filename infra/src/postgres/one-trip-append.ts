// An append in one round trip. A local append is an INSERT into the log plus the inline projections'
// statements; when every projection involved can say its statements up front (it writes without
// reading), they all go to Postgres as one multi-statement simple query, which Postgres runs as one
// implicit transaction: all or nothing, as with BEGIN … COMMIT, but without four round trips.
// Values are inlined as literals with pg's escapeLiteral; statement texts are our own code's.
import { eventDefinition, type Envelope } from '@tributary/domain';
import type { ProjectedEvent, Projection } from '@tributary/projections';
import pg from 'pg';

const PARAM = /\$(\d+)/g;

function literal(value: unknown): string | null {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'string') return pg.escapeLiteral(value);
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : null;
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (value instanceof Date) return pg.escapeLiteral(value.toISOString());
  return null; // arrays, objects: not inlined; the caller takes the transaction path instead
}

/** `text` with $1…$n replaced by literals; null when a value cannot be inlined. */
export function inlineStatement(text: string, values: readonly unknown[]): string | null {
  let ok = true;
  const sql = text.replace(PARAM, (_, n: string) => {
    const lit = literal(values[Number(n) - 1]);
    if (lit === null) ok = false;
    return lit ?? '';
  });
  return ok ? sql : null;
}

export const projectedFromEnvelope = (e: Envelope): ProjectedEvent => ({
  id: e.id,
  type: e.type,
  origin: e.origin,
  stream: e.stream,
  streamVersion: e.streamVersion,
  actorId: e.actorId,
  occurredAt: e.occurredAt,
  data: e.data,
});

/**
 * The whole append as one SQL text (the INSERT first, RETURNING positions), or null when some inline
 * projection needs to read for one of these events and the append must run in a transaction.
 */
export function oneTripAppendSql(
  rows: readonly { envelope: Envelope; text: string }[],
  projections: readonly Projection[],
): string | null {
  const values: string[] = [];
  const statements: string[] = [];
  for (const { envelope: e, text } of rows) {
    const def = eventDefinition(e.type);
    const cells = [
      e.id,
      e.origin,
      e.stream,
      e.streamVersion,
      e.type,
      e.actorId,
      e.occurredAt,
      !!def && def.federable && def.public,
      text,
    ];
    values.push(`(${cells.map((c) => literal(c)).join(', ')})`);
    const projected = projectedFromEnvelope(e);
    for (const p of projections) {
      if (!p.handles.includes(e.type)) continue;
      const own = p.statements?.(projected);
      if (!own) return null;
      for (const s of own) {
        const sql = inlineStatement(s.text, s.values);
        if (sql === null) return null;
        statements.push(sql);
      }
    }
  }
  return [
    `INSERT INTO events (id, origin, stream, stream_version, type, actor_id, occurred_at, feed, envelope) VALUES ${values.join(', ')} RETURNING position`,
    ...statements,
  ].join(';\n');
}
