// A projection folds events into read-model tables. Inline projections run in the append's own
// transaction; async ones run behind a durable checkpoint. Both must be deterministic in the events
// alone, so a rebuild from the log equals the incremental result.
export interface Queryable {
  query<R = Record<string, unknown>>(
    text: string,
    values?: unknown[],
  ): Promise<{ rows: R[]; rowCount: number | null }>;
}

/** What a projection sees of an event. */
export interface ProjectedEvent {
  id: string;
  type: string;
  origin: string;
  stream: string;
  streamVersion: number;
  actorId: string;
  occurredAt: string;
  data: Record<string, unknown>;
  /** The feed sequence, known to async projections only. */
  sequence?: number;
  /**
   * Set on events imported from a peer: `stream`, `data` and ids in them are the origin's, and
   * `actorId` is already the local agent the remote actor is bound to. Only projections that say
   * `foldsImported` are handed them.
   */
  imported?: boolean;
}

/** One parameterized SQL statement a projection wants run for an event. */
export interface SqlStatement {
  text: string;
  values: unknown[];
}

export interface Projection {
  name: string;
  mode: 'inline' | 'async';
  /** Tables this projection owns; a rebuild empties exactly these. */
  tables: readonly string[];
  /** Event types it folds; others never reach `apply`. */
  handles: readonly string[];
  /**
   * Opts in to events imported from peers (`imported` on the event): without it the runners hand the
   * projection only this instance's own events, so a read model about us cannot take in a peer's.
   */
  foldsImported?: true;
  apply(db: Queryable, event: ProjectedEvent): Promise<void>;
  /**
   * Optional: folds many events at once (a bulk import) with exactly the result of `apply` on each in
   * order. Projections own disjoint tables, so the store may hand each its events as one batch.
   */
  applyMany?(db: Queryable, events: readonly ProjectedEvent[]): Promise<void>;
  /**
   * For projections that only write (never read) for an event: the statements `apply` would run, so the
   * store can send them with the append in one round trip. `null` means "use apply" for that event.
   */
  statements?(event: ProjectedEvent): SqlStatement[] | null;
  /**
   * For projections that only write for these events: the statements `applyMany` would run for them, so
   * a bulk append can go in one round trip too. `null` means "use applyMany".
   */
  statementsMany?(events: readonly ProjectedEvent[]): SqlStatement[] | null;
  /**
   * Async projections that fold only what the log's columns hold (type, id, origin, actor, time, the
   * local stream and version) may say so: the runner then neither reads nor parses envelopes, and their
   * events carry empty `data`. (A rebuild still hands them whole events; they must not depend on it.)
   */
  metadataOnly?: boolean;
  /**
   * For an async projection that can fold in the database alone: one data-modifying statement (INSERT,
   * UPDATE or DELETE, usable inside WITH) over a relation named `batch` — the next sequenced events it
   * handles, with the log's columns `seq, id, type, origin, stream, stream_version, actor_id,
   * occurred_at` — whose result equals `applyMany` on those events. The runner then folds a batch and
   * moves the checkpoint in one round trip, and no row of the log travels to the process.
   */
  foldSql?: string;
}

/** Whether the runners hand `event` to `projection`: a type it handles, and imported only if it opts in. */
export const foldsEvent = (projection: Projection, event: ProjectedEvent): boolean =>
  (projection.handles.includes('*') || projection.handles.includes(event.type)) &&
  (event.imported !== true || projection.foldsImported === true);

/**
 * SQL for a text[] parameter passed as a JSON array string (`JSON.stringify(array)`): unlike an array
 * value it can be inlined, so statements with arrays can still go in a one-round-trip append.
 */
export const textArray = (n: number) => `ARRAY(SELECT jsonb_array_elements_text($${n}::jsonb))`;

/** Runs the statements in order: `apply` for projections defined by their statements. */
export async function runStatements(db: Queryable, statements: readonly SqlStatement[]): Promise<void> {
  for (const s of statements) await db.query(s.text, s.values);
}
