import type { Envelope } from '@tributary/domain';

/** An event as the log holds it: the envelope, the exact bytes signed or received, and where it sits. */
export interface StoredEvent {
  position: number;
  stream: string;
  streamVersion: number;
  type: string;
  origin: string;
  actorId: string;
  occurredAt: string;
  envelope: Envelope;
  /** The exact JSON text stored: what an auditor re-verifies. */
  text: string;
  data: Record<string, unknown>;
}

export interface SequencedEvent extends StoredEvent {
  /** The feed sequence: gap-free as a reader sees it, never signed, differs per instance. */
  sequence: number;
}

export interface AppendStream {
  stream: string;
  /** The version the caller last saw: 0 means the stream must not exist yet. */
  expectedVersion: number;
  envelopes: { envelope: Envelope; text: string }[];
}

export interface AppendResult {
  events: { id: string; stream: string; streamVersion: number; position: number }[];
}

export interface ReadAllOptions {
  since: number;
  limit: number;
  /** Only events whose type is federable and public (the feed). */
  feedOnly?: boolean;
}

export interface EventStore {
  /** Appends to one or more streams atomically, with inline projections in the same transaction. */
  append(streams: AppendStream[]): Promise<AppendResult>;
  readStream(stream: string): Promise<StoredEvent[]>;
  /**
   * Each stream's events in version order; with `after`, only those past the version it names for that
   * stream (a caller that already holds the state up to there reads only the rest).
   */
  readStreams(
    streams: readonly string[],
    after?: ReadonlyMap<string, number>,
  ): Promise<Map<string, StoredEvent[]>>;
  /** Events after `since` in sequence order; `head` is the highest sequence assigned. */
  readAll(options: ReadAllOptions): Promise<{ events: SequencedEvent[]; head: number }>;
  /**
   * The feed page as stored text, unparsed: sequence and exact envelope text of up to `limit` feed events
   * after `since`, and the head. The hot path of peers syncing, so it costs one round trip.
   */
  readFeedPage(options: {
    since: number;
    limit: number;
    /** A relay's page for one peer: without that origin's events… */
    exceptOrigin?: string | undefined;
    /** …and, when given, only these origins' events. */
    origins?: readonly string[] | null | undefined;
    /**
     * A page a reader may get a little behind the latest (a peer pulling by cursor): a store with read
     * replicas may serve it from one. Never skips: it may only end earlier.
     */
    tolerateLag?: boolean | undefined;
  }): Promise<{ rows: { sequence: number; text: string }[]; head: number }>;
  /**
   * The same page as it arrives from the database, for the feed route: the head first, then each row in
   * sequence order, all read in one snapshot (so no row is past the head). Resolves once the last row
   * was handed over. Public and cursor-driven, so a store with read replicas serves it from one.
   */
  streamFeedPage(
    options: { since: number; limit: number },
    sink: { head(head: number): void; row(sequence: number, text: string): void },
  ): Promise<void>;
  /** Sequenced events written on behalf of any of these agents, after `since`. */
  readByActors(options: {
    actorIds: readonly string[];
    since: number;
    limit: number;
  }): Promise<SequencedEvent[]>;
  /**
   * The latest sequenced events written on behalf of any of these agents, newest first: at most `limit`,
   * all before the sequence `before` when given. Bounded by `limit` per agent, however long the log.
   */
  readLatestByActors(options: {
    actorIds: readonly string[];
    before?: number | undefined;
    limit: number;
  }): Promise<SequencedEvent[]>;
}
