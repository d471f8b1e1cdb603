// The PostgreSQL implementation of the EventStore port.
import { conflict, DomainError, eventDefinition, type Envelope } from '@tributary/domain';
import { foldsEvent, type Projection, type ProjectedEvent } from '@tributary/projections';
import type {
  AppendResult,
  AppendStream,
  EventStore,
  ImportedRow,
  ReadAllOptions,
  SequencedEvent,
  StoredEvent,
} from '@tributary/services';
import pg, { type Pool, type PoolClient } from 'pg';
import { createGroupCommit, type GroupCommit } from './group-commit.js';
import { escapeLiteral, oneTripAppendSql, oneTripBulkAppendSql, type LogRow } from './one-trip-append.js';
import { checkOutClient } from './held-client.js';
import type { ReadPool } from './read-replicas.js';

interface EventRow {
  position: string;
  stream: string;
  stream_version: number;
  type: string;
  origin: string;
  actor_id: string;
  occurred_at: Date;
  envelope: string;
  seq?: string;
}

/** One row to insert: the envelope and its exact text, under its local stream, version and actor. */
interface LogInsert {
  envelope: Envelope;
  text: string;
  stream: string;
  streamVersion: number;
  actorId: string;
  feed: boolean;
  imported: boolean;
}

/** Appends of up to this many events go as one multi-statement round trip, statements per event. */
const ONE_TRIP_MAX_EVENTS = 16;
/** Up to this many, with bulk projection statements (a few hundred kB of SQL text at most). */
const ONE_TRIP_BULK_MAX_EVENTS = 1000;
const DEFAULT_APPEND_CONCURRENCY = 2;

const COLUMNS =
  'e.position, e.stream, e.stream_version, e.type, e.origin, e.actor_id, e.occurred_at, e.envelope';

function toStored(r: EventRow): StoredEvent {
  const envelope = JSON.parse(r.envelope) as Envelope;
  return {
    position: Number(r.position),
    stream: r.stream,
    streamVersion: r.stream_version,
    type: r.type,
    origin: r.origin,
    actorId: r.actor_id,
    occurredAt: r.occurred_at.toISOString(),
    envelope,
    text: r.envelope,
    data: envelope.data,
  };
}

interface PgEventStoreOptions {
  inlineProjections: readonly Projection[];
  /** Called after every commit, so the sequencer can run soon (debounced by the caller). */
  onAppended?: () => void;
  /**
   * Whether feed reads run the sequencer first. A running instance keeps the sequence fresh with its
   * own loop (a few ms after each local commit), so its readers skip that round of work.
   */
  sequenceOnRead?: boolean;
  /**
   * Small appends in flight at once; more wait and then commit together (group commit). Default 2:
   * measured on two cores, more parallel transactions only contend, fewer larger ones go further.
   */
  appendConcurrency?: number;
  /**
   * Hot standbys for the feed pages that tolerate lag (docs/operations.md#read-replicas): the public
   * feed route and pages asked for with `tolerateLag`. Without it every page is read on `pool`.
   */
  feedReads?: ReadPool;
  /** Told how long each append took, its events and whether it committed (the metrics). */
  observeAppend?: (seconds: number, events: number, ok: boolean) => void;
}

export class PgEventStore implements EventStore {
  private readonly groups: GroupCommit<readonly LogRow[], number[]>;

  constructor(
    private readonly pool: Pool,
    private readonly options: PgEventStoreOptions,
  ) {
    this.groups = createGroupCommit({
      concurrency: options.appendConcurrency ?? DEFAULT_APPEND_CONCURRENCY,
      maxWeight: ONE_TRIP_BULK_MAX_EVENTS,
      weigh: (rows) => rows.length,
      runTogether: (appends) => this.appendInOneTrip(appends),
      retryAlone: refusedByDatabase,
    });
  }

  /**
   * Appends as one multi-statement query (one implicit transaction), positions per append; null when a
   * projection must read for one of these events.
   */
  private async appendInOneTrip(appends: readonly (readonly LogRow[])[]): Promise<number[][] | null> {
    const sql = this.oneTripSql(appends.length === 1 ? appends[0]! : appends.flat());
    if (sql === null) return null;
    // A connection that cannot be had means nothing was sent; once the statements are sent, only the
    // database's own refusal says nothing was written (the answer to COMMIT may be what was lost).
    const client = await checkOutClient(this.pool);
    let results;
    try {
      results = (await client.query(sql)) as unknown as
        { rows: { position: string }[] }[] | { rows: { position: string }[] };
    } catch (e) {
      throw answeredByDatabase(e) ? translateLogError(e) : outcomeUnknown(e);
    } finally {
      client.release();
    }
    this.options.onAppended?.();
    const inserted = (Array.isArray(results) ? results[0]! : results).rows;
    let at = 0;
    return appends.map((a) => inserted.slice(at, (at += a.length)).map((r) => Number(r.position)));
  }

  async append(streams: AppendStream[]): Promise<AppendResult> {
    const observe = this.options.observeAppend;
    if (!observe) return this.appendRows(streams);
    const started = performance.now();
    try {
      const result = await this.appendRows(streams);
      if (result.events.length > 0) observe((performance.now() - started) / 1000, result.events.length, true);
      return result;
    } catch (e) {
      observe((performance.now() - started) / 1000, 0, false);
      throw e;
    }
  }

  private async appendRows(streams: AppendStream[]): Promise<AppendResult> {
    const rows = streams.flatMap((s) => {
      if (s.envelopes.length === 0) return [];
      if (s.envelopes[0]!.envelope.streamVersion !== s.expectedVersion + 1)
        throw new Error(
          `envelope versions of ${s.stream} do not follow expected version ${s.expectedVersion}`,
        );
      return s.envelopes;
    });
    if (rows.length === 0) return { events: [] };
    // One round trip when the projections can say their statements, shared with other appends waiting
    // for a slot (group commit). Beyond that size, or when a projection must read, a transaction with a
    // parameterized unnest INSERT and bulk projections.
    if (rows.length <= ONE_TRIP_BULK_MAX_EVENTS) {
      const positions = await this.groups.submit(rows);
      if (positions)
        return {
          events: rows.map(({ envelope: e }, i) => ({
            id: e.id,
            stream: e.stream,
            streamVersion: e.streamVersion,
            position: positions[i]!,
          })),
        };
    }
    const client = await checkOutClient(this.pool);
    let committing = false;
    try {
      await client.query('BEGIN');
      const result = await this.appendIn(client, rows);
      committing = true;
      await client.query('COMMIT');
      this.options.onAppended?.();
      return result;
    } catch (e) {
      await client.query('ROLLBACK').catch(() => undefined);
      // Before COMMIT was sent, a lost connection rolls the transaction back; during it, no one knows.
      throw committing && !answeredByDatabase(e) ? outcomeUnknown(e) : translateLogError(e);
    } finally {
      client.release();
    }
  }

  /**
   * An import's writes as SQL text for a caller's transaction (our own sealed events first, then the
   * imported rows under their local streams, with inline projections); null when a projection must read.
   */
  importSql(local: readonly LogRow[], imported: readonly ImportedRow[]): string | null {
    const rows: LogRow[] = [
      ...local,
      ...imported.map((r) => ({
        envelope: r.envelope,
        text: r.text,
        imported: {
          stream: r.localStream,
          streamVersion: r.localVersion,
          actorId: r.actorId,
          ...(r.onFeed && { onFeed: true }),
        },
      })),
    ];
    return this.oneTripSql(rows);
  }

  /** The rows and their projections as one SQL text: statements per event when few, in bulk when many. */
  private oneTripSql(rows: readonly LogRow[]): string | null {
    return rows.length <= ONE_TRIP_MAX_EVENTS
      ? oneTripAppendSql(rows, this.options.inlineProjections)
      : oneTripBulkAppendSql(rows, this.options.inlineProjections);
  }

  /** Inserts and projects inside a caller's transaction (the import path batches many of these). */
  async appendIn(client: PoolClient, rows: { envelope: Envelope; text: string }[]): Promise<AppendResult> {
    return this.insertIn(
      client,
      rows.map(({ envelope: e, text }) => {
        const def = eventDefinition(e.type);
        return {
          envelope: e,
          text,
          stream: e.stream,
          streamVersion: e.streamVersion,
          actorId: e.actorId,
          feed: !!def && def.federable && def.public,
          imported: false,
        };
      }),
    );
  }

  /**
   * Inserts events imported from a peer, verbatim, under their local stream (`<origin>/<stream>`, numbered
   * locally) and local actor, inside a caller's transaction. They are on our feed only on a relay (the
   * global instance), which carries what it accepted from its peers.
   */
  async appendImportedIn(client: PoolClient, rows: readonly ImportedRow[]): Promise<AppendResult> {
    return this.insertIn(
      client,
      rows.map((r) => ({
        envelope: r.envelope,
        text: r.text,
        stream: r.localStream,
        streamVersion: r.localVersion,
        actorId: r.actorId,
        feed: !!r.onFeed && isFeedType(r.envelope.type),
        imported: true,
      })),
    );
  }

  private async insertIn(client: PoolClient, rows: readonly LogInsert[]): Promise<AppendResult> {
    const cols = {
      id: [] as string[],
      origin: [] as string[],
      stream: [] as string[],
      version: [] as number[],
      type: [] as string[],
      actor: [] as string[],
      occurred: [] as string[],
      feed: [] as boolean[],
      text: [] as string[],
    };
    for (const { envelope: e, text, stream, streamVersion, actorId, feed } of rows) {
      cols.id.push(e.id);
      cols.origin.push(e.origin);
      cols.stream.push(stream);
      cols.version.push(streamVersion);
      cols.type.push(e.type);
      cols.actor.push(actorId);
      cols.occurred.push(e.occurredAt);
      cols.feed.push(feed);
      cols.text.push(text);
    }
    const inserted = await client.query<{ position: string }>(
      `INSERT INTO events (id, origin, stream, stream_version, type, actor_id, occurred_at, feed, envelope)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::int[], $5::text[], $6::text[], $7::timestamptz[], $8::bool[], $9::text[])
       RETURNING position`,
      [
        cols.id,
        cols.origin,
        cols.stream,
        cols.version,
        cols.type,
        cols.actor,
        cols.occurred,
        cols.feed,
        cols.text,
      ],
    );
    const projected: ProjectedEvent[] = rows.map(({ envelope: e, actorId, imported }) => ({
      id: e.id,
      type: e.type,
      origin: e.origin,
      stream: e.stream,
      streamVersion: e.streamVersion,
      actorId,
      occurredAt: e.occurredAt,
      data: e.data,
      ...(imported && { imported }),
    }));
    // Projections own disjoint tables, so each folds its own events in order, in bulk where it can.
    for (const p of this.options.inlineProjections) {
      const mine = projected.filter((e) => foldsEvent(p, e));
      if (mine.length === 0) continue;
      if (p.applyMany && mine.length > 1) await p.applyMany(client, mine);
      else for (const e of mine) await p.apply(client, e);
    }
    return {
      events: rows.map(({ envelope: e, stream, streamVersion }, i) => ({
        id: e.id,
        stream,
        streamVersion,
        position: Number(inserted.rows[i]!.position),
      })),
    };
  }

  async readStream(stream: string): Promise<StoredEvent[]> {
    const { rows } = await this.pool.query<EventRow>(
      `SELECT ${COLUMNS} FROM events e WHERE e.stream = $1 ORDER BY e.stream_version`,
      [stream],
    );
    return rows.map(toStored);
  }

  async readStreams(
    streams: readonly string[],
    after?: ReadonlyMap<string, number>,
  ): Promise<Map<string, StoredEvent[]>> {
    const out = new Map<string, StoredEvent[]>(streams.map((s) => [s, []]));
    if (streams.length === 0) return out;
    // One range of events_stream_version_unique per stream: (stream, version past `after`).
    const { rows } = await this.pool.query<EventRow>(
      `SELECT ${COLUMNS} FROM unnest($1::text[], $2::int[]) AS q(stream, after)
       CROSS JOIN LATERAL (SELECT * FROM events e WHERE e.stream = q.stream AND e.stream_version > q.after
                           OFFSET 0) e
       ORDER BY e.stream, e.stream_version`,
      [streams, streams.map((s) => after?.get(s) ?? 0)],
    );
    for (const r of rows) out.get(r.stream)!.push(toStored(r));
    return out;
  }

  async readAll(options: ReadAllOptions): Promise<{ events: SequencedEvent[]; head: number }> {
    await sequenceEvents(this.pool);
    const [page, head] = await Promise.all([
      this.pool.query<EventRow>(
        `SELECT s.seq, ${COLUMNS} FROM event_sequence s JOIN events e ON e.position = s.position
         WHERE s.seq > $1 ${options.feedOnly ? 'AND s.feed' : ''} ORDER BY s.seq LIMIT $2`,
        [options.since, options.limit],
      ),
      this.pool.query<{ last_seq: string }>('SELECT last_seq FROM sequencer_state'),
    ]);
    return {
      events: page.rows.map((r) => ({ ...toStored(r), sequence: Number(r.seq) })),
      head: Number(head.rows[0]?.last_seq ?? 0),
    };
  }

  /** The page collected: the same read as the streamed one (one snapshot, one round trip). */
  async readFeedPage(options: {
    since: number;
    limit: number;
    exceptOrigin?: string | undefined;
    origins?: readonly string[] | null | undefined;
    tolerateLag?: boolean | undefined;
  }) {
    let head = 0;
    const rows: { sequence: number; text: string }[] = [];
    // Collected pages are the primary's unless the caller says lag is fine (a peer's export page).
    await this.streamFeedPage(
      { ...options, tolerateLag: options.tolerateLag === true },
      {
        head: (h) => (head = h),
        row: (sequence, text) => rows.push({ sequence, text }),
      },
    );
    return { rows, head };
  }

  /**
   * The public feed route's read (and a page asked for with `tolerateLag`): on a standby fit to serve
   * when there is one (DATABASE_READ_URL), else on the primary. A standby replays the primary's WAL in
   * commit order, and the sequencer commits each pass's numbers after every event they number, so a
   * snapshot there holds a prefix of the same sequence: it may end earlier, never skip. Its page is
   * collected whole before the sink sees anything, so a standby lost mid-page (or one whose head is
   * still below `since`: the reader saw further on another server) is read again on the primary, with
   * nothing sent yet.
   */
  async streamFeedPage(
    options: {
      since: number;
      limit: number;
      exceptOrigin?: string | undefined;
      origins?: readonly string[] | null | undefined;
      tolerateLag?: boolean | undefined;
    },
    sink: { head(head: number): void; row(sequence: number, text: string): void },
  ): Promise<void> {
    if (!Number.isSafeInteger(options.since) || !Number.isSafeInteger(options.limit))
      throw new Error('feed page: since and limit must be integers');
    if (this.options.sequenceOnRead !== false) await sequenceEvents(this.pool);
    const replica = options.tolerateLag !== false ? this.options.feedReads?.pick() : null;
    if (replica) {
      let head = 0;
      const rows: { sequence: number; text: string }[] = [];
      try {
        await feedPageOn(replica.pool, options, {
          head: (h) => (head = h),
          row: (sequence, text) => rows.push({ sequence, text }),
        });
        if (head >= options.since) {
          sink.head(head);
          for (const r of rows) sink.row(r.sequence, r.text);
          return;
        }
      } catch (error) {
        this.options.feedReads!.failed(replica, error);
      }
    }
    await feedPageOn(this.pool, options, sink);
  }

  async readByActors(options: {
    actorIds: readonly string[];
    since: number;
    limit: number;
  }): Promise<SequencedEvent[]> {
    await sequenceEvents(this.pool);
    const { rows } = await this.pool.query<EventRow>(
      `SELECT s.seq, ${COLUMNS} FROM events e JOIN event_sequence s ON s.position = e.position
       WHERE e.actor_id = ANY($1::text[]) AND s.seq > $2 ORDER BY s.seq LIMIT $3`,
      [options.actorIds, options.since, options.limit],
    );
    return rows.map((r) => ({ ...toStored(r), sequence: Number(r.seq) }));
  }

  // Newest first without walking the log: the sequence numbers rows in (tx_id, position) order
  // (tributary_sequence_events), so each actor's latest rows are the top of the index
  // events_actor_tx (actor_id, tx_id, position) (migration 0064), read backwards, at most `limit` of
  // them per actor. `before` becomes the (tx_id, position) of the latest sequenced row under it, so a
  // deep page starts at its place in the index too.
  async readLatestByActors(options: {
    actorIds: readonly string[];
    before?: number | undefined;
    limit: number;
  }): Promise<SequencedEvent[]> {
    await sequenceEvents(this.pool);
    const bounded = options.before !== undefined;
    const { rows } = await this.pool.query<EventRow>(
      `${bounded ? `WITH bound AS (SELECT e.tx_id, e.position FROM event_sequence s JOIN events e ON e.position = s.position WHERE s.seq < $3 ORDER BY s.seq DESC LIMIT 1) ` : ''}
       SELECT x.* FROM unnest($1::text[]) AS a(actor_id)
       CROSS JOIN LATERAL (
         SELECT s.seq, ${COLUMNS} FROM events e JOIN event_sequence s ON s.position = e.position
         WHERE e.actor_id = a.actor_id${bounded ? ' AND (e.tx_id, e.position) <= (SELECT tx_id, position FROM bound)' : ''}
         ORDER BY e.tx_id DESC, e.position DESC LIMIT $2
       ) x
       ORDER BY x.seq DESC LIMIT $2`,
      bounded
        ? [[...new Set(options.actorIds)], options.limit, options.before]
        : [[...new Set(options.actorIds)], options.limit],
    );
    return rows.map((r) => ({ ...toStored(r), sequence: Number(r.seq) }));
  }
}

/**
 * One feed page read on `pool`: the head and the page in one read-only snapshot and one round trip,
 * rows handed over as pg parses them, so the caller can send the first ones while Postgres is still
 * producing the rest. Only reads: it runs on a hot standby as on the primary.
 */
async function feedPageOn(
  pool: Pool,
  options: {
    since: number;
    limit: number;
    exceptOrigin?: string | undefined;
    origins?: readonly string[] | null | undefined;
  },
  sink: { head(head: number): void; row(sequence: number, text: string): void },
): Promise<void> {
  const client = await checkOutClient(pool);
  try {
    const query = new pg.Query<{ last_seq?: string; seq?: string; envelope?: string }>(
      `BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY;
       SELECT last_seq FROM sequencer_state;
       SELECT s.seq, e.envelope FROM event_sequence s JOIN events e ON e.position = s.position
         WHERE s.feed AND s.seq > ${options.since}${originFilter(options)} ORDER BY s.seq LIMIT ${options.limit};
       COMMIT`,
    );
    // A sink that throws must not throw inside pg's parser (that would be an uncaught exception): the
    // first such error is kept, the rest of the page is read and dropped, and the error is thrown here.
    let sinkFailed: { error: unknown } | undefined;
    await new Promise<void>((resolve, reject) => {
      query.on('row', (row) => {
        if (sinkFailed) return;
        try {
          if (row.last_seq !== undefined) sink.head(Number(row.last_seq));
          else sink.row(Number(row.seq), row.envelope!);
        } catch (error) {
          sinkFailed = { error };
        }
      });
      query.on('end', () => resolve());
      query.on('error', reject);
      client.query(query);
    });
    if (sinkFailed) throw sinkFailed.error;
  } catch (e) {
    // A statement that failed inside the explicit block leaves it open: end it before reuse.
    await client.query('ROLLBACK').catch(() => undefined);
    throw e;
  } finally {
    client.release();
  }
}

/** Runs the sequencer once; -1 when another session is already sequencing. */
export async function sequenceEvents(pool: Pool | PoolClient): Promise<number> {
  const { rows } = await pool.query<{ n: string }>('SELECT tributary_sequence_events() AS n');
  return Number(rows[0]!.n);
}

/**
 * Whether the database refused a statement of the append (its implicit transaction is rolled back, so
 * nothing of it was written): a conflict, a constraint, bad data, a deadlock — not a lost connection.
 */
function refusedByDatabase(e: unknown): boolean {
  if (e instanceof DomainError) return e.code !== 'log.outcome_unknown'; // translated from one of those
  const code = (e as { code?: unknown }).code;
  return typeof code === 'string' && /^(22|23|40|42|P0)/.test(code);
}

/**
 * Whether the database answered the append with an error of its own (a refusal, a cancelled statement):
 * its transaction is then rolled back. A lost connection, or a server going down (57P01–57P03, which may
 * come after a COMMIT that went through), leaves the outcome unknown.
 */
function answeredByDatabase(e: unknown): boolean {
  if (e instanceof DomainError) return e.code !== 'log.outcome_unknown';
  const code = (e as { code?: unknown }).code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && !/^(08|57P)/.test(code);
}

/** The connection was lost with the append sent: it may or may not have committed. */
function outcomeUnknown(cause: unknown): DomainError {
  const e = new DomainError(
    'log.outcome_unknown',
    'unavailable',
    'the database went away while the write was committing; it may or may not have been written',
  );
  (e as { cause?: unknown }).cause = cause;
  return e;
}

/** A write the log refused, as the domain conflict it means (a stream moved on, an event already held). */
export function translateLogError(e: unknown): unknown {
  if (e instanceof DomainError) return e;
  const pg = e as { code?: string; constraint?: string; detail?: string };
  if (pg.code === '23505' && pg.constraint === 'events_stream_version_unique') {
    const stream = /\(stream, stream_version\)=\((.*), \d+\)/.exec(pg.detail ?? '')?.[1];
    return conflict('log.stream_conflict', 'the stream changed since it was read; retry', { stream });
  }
  if (pg.code === '23505' && pg.constraint === 'events_origin_id_unique')
    return conflict('log.duplicate_event', 'an event with that id from that origin is already in the log');
  if (pg.code === '23514' && pg.constraint === 'events_version_chain')
    return conflict('log.stream_conflict', 'the expected version is ahead of the stream', {});
  // Two mutations of one peer with the same nonce raced each other (rm_peer_mutations, inline).
  if (pg.code === '23505' && pg.constraint === 'rm_peer_mutations_nonce')
    return conflict('federation.replayed_nonce', 'that nonce was already used by this peer');
  return e;
}

const isFeedType = (type: string) => {
  const def = eventDefinition(type);
  return !!def && def.federable && def.public;
};

/** A relay's page for one peer: not that peer's own events, and only the origins it follows. */
function originFilter(o: {
  exceptOrigin?: string | undefined;
  origins?: readonly string[] | null | undefined;
}) {
  let sql = '';
  if (o.exceptOrigin !== undefined) sql += ` AND e.origin <> ${escapeLiteral(o.exceptOrigin)}`;
  if (o.origins)
    sql += ` AND e.origin = ANY(ARRAY[${o.origins.map(escapeLiteral).join(',') || 'NULL'}]::text[])`;
  return sql;
}
