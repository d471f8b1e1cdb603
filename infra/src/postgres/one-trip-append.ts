// An append in one round trip. A local append is an INSERT into the log plus the inline projections'
// statements; when every projection involved can say its statements up front (it writes without
// reading), they all go to Postgres as one multi-statement simple query, which Postgres runs as one
// implicit transaction: all or nothing, as with BEGIN … COMMIT, but without four round trips.
// Values are inlined as literals with pg's escapeLiteral; statement texts are our own code's.
import { eventDefinition, type Envelope } from '@tributary/domain';
import { foldsEvent, type ProjectedEvent, type Projection, type SqlStatement } from '@tributary/projections';

const PARAM = /\$(\d+)/g;

const QUOTE = /'/g;
const BACKSLASH = /\\/g;

/**
 * `pg.escapeLiteral`'s exact output (quotes doubled; with a backslash, backslashes doubled and an E''
 * string), built with two native replaces instead of one string concatenation per character: envelope
 * texts are most of every append's SQL.
 */
export function escapeLiteral(text: string): string {
  const backslash = text.includes('\\');
  // Most texts (ids, times, most envelopes) have neither: no regex pass at all.
  if (!backslash && !text.includes("'")) return `'${text}'`;
  const quoted = text.replace(QUOTE, "''");
  return backslash ? ` E'${quoted.replace(BACKSLASH, '\\\\')}'` : `'${quoted}'`;
}

function literal(value: unknown): string | null {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'string') return escapeLiteral(value);
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : null;
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (value instanceof Date) return escapeLiteral(value.toISOString());
  if (Array.isArray(value)) {
    const text = arrayText(value);
    return text === null ? null : escapeLiteral(text);
  }
  return null; // objects: not inlined; the caller takes the transaction path instead
}

const ARRAY_QUOTE = /["\\]/g;

/**
 * A one-dimensional array of strings, finite numbers, booleans and nulls in PostgreSQL's array input
 * syntax — the text pg itself sends when such an array is a bound parameter (the statement's cast, e.g.
 * `$1::text[]`, types it just the same); null for anything else.
 */
function arrayText(values: readonly unknown[]): string | null {
  let out = '{';
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (i > 0) out += ',';
    if (v === null || v === undefined) out += 'NULL';
    else if (typeof v === 'string')
      // Ids, nonces and times have nothing to escape: two native scans instead of a regex replace.
      out += v.includes('"') || v.includes('\\') ? `"${v.replace(ARRAY_QUOTE, '\\$&')}"` : `"${v}"`;
    else if (typeof v === 'number' && Number.isFinite(v)) out += String(v);
    else if (typeof v === 'boolean') out += v ? 'true' : 'false';
    else return null;
  }
  return `${out}}`;
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

/**
 * One row of the log to insert: a sealed envelope and its exact text; for an event imported from a peer,
 * also the local stream, version and actor it is stored under (on our feed only on a relay).
 */
export interface LogRow {
  envelope: Envelope;
  text: string;
  imported?: { stream: string; streamVersion: number; actorId: string; onFeed?: boolean };
}

const projectedFromRow = ({ envelope: e, imported }: LogRow): ProjectedEvent => ({
  id: e.id,
  type: e.type,
  origin: e.origin,
  stream: e.stream,
  streamVersion: e.streamVersion,
  actorId: imported ? imported.actorId : e.actorId,
  occurredAt: e.occurredAt,
  data: e.data,
  ...(imported && { imported: true }),
});

/** The log INSERT of these rows with their values inlined, RETURNING positions in row order. */
function logInsertSql(rows: readonly LogRow[]): string {
  const values = rows.map(({ envelope: e, text, imported }) => {
    const def = eventDefinition(e.type);
    const cells = [
      e.id,
      e.origin,
      imported ? imported.stream : e.stream,
      imported ? imported.streamVersion : e.streamVersion,
      e.type,
      imported ? imported.actorId : e.actorId,
      e.occurredAt,
      (!imported || !!imported.onFeed) && !!def && def.federable && def.public,
      text,
    ];
    return `(${cells.map((c) => literal(c)).join(', ')})`;
  });
  return `INSERT INTO events (id, origin, stream, stream_version, type, actor_id, occurred_at, feed, envelope) VALUES ${values.join(', ')} RETURNING position`;
}

/** Statement texts with values inlined; null when one cannot be. */
function inlined(statements: readonly SqlStatement[], into: string[]): boolean {
  for (const s of statements) {
    const sql = inlineStatement(s.text, s.values);
    if (sql === null) return false;
    into.push(sql);
  }
  return true;
}

/**
 * The whole append as one SQL text (the INSERT first, RETURNING positions), or null when some inline
 * projection needs to read for one of these events and the append must run in a transaction.
 */
export function oneTripAppendSql(rows: readonly LogRow[], projections: readonly Projection[]): string | null {
  const statements: string[] = [];
  for (const row of rows) {
    const projected = projectedFromRow(row);
    const e = projected;
    for (const p of projections) {
      if (!foldsEvent(p, e)) continue;
      const own = p.statements?.(projected);
      if (!own || !inlined(own, statements)) return null;
    }
  }
  return [logInsertSql(rows), ...statements].join(';\n');
}

/**
 * A bulk append as one SQL text: the INSERT, then each projection's statements for its events — in bulk
 * (`statementsMany`, as `applyMany` would run them) where it has them, else event by event. Projections
 * own disjoint tables, so running them one after another equals interleaving them per event. Null when a
 * projection must read for some of these events.
 */
export function oneTripBulkAppendSql(
  rows: readonly LogRow[],
  projections: readonly Projection[],
): string | null {
  const projected = rows.map(projectedFromRow);
  const statements: string[] = [];
  for (const p of projections) {
    const mine = projected.filter((e) => foldsEvent(p, e));
    if (mine.length === 0) continue;
    const own = p.statementsMany
      ? p.statementsMany(mine)
      : p.statements
        ? collect(mine.map((e) => p.statements!(e)))
        : null;
    if (!own || !inlined(own, statements)) return null;
  }
  return [logInsertSql(rows), ...statements].join(';\n');
}

const collect = (lists: (SqlStatement[] | null)[]): SqlStatement[] | null =>
  lists.some((l) => l === null) ? null : lists.flatMap((l) => l!);
