// The EventStore port held in memory, for unit tests that run operations through the real pipeline
// without PostgreSQL. Test layer only: nothing in production composes it. The contract suite
// (test/src/harness/event-store-contract.ts) runs against it and against PgEventStore alike.
import { conflict, eventDefinition } from '@tributary/domain';
import type {
  AppendResult,
  AppendStream,
  EventStore,
  ReadAllOptions,
  SequencedEvent,
  StoredEvent,
} from '@tributary/services';

interface Held extends SequencedEvent {
  /** On the public feed: the event's type is federable and public, as PgEventStore decides. */
  feed: boolean;
}

export class InMemoryEventStore implements EventStore {
  /** Every event in commit order: position and sequence both count up from 1 without gaps. */
  private readonly log: Held[] = [];
  private readonly streams = new Map<string, Held[]>();
  private readonly ids = new Set<string>();

  /** Every event appended so far, in order (for a test's "then these events"). */
  all(): readonly StoredEvent[] {
    return this.log;
  }

  async append(streams: AppendStream[]): Promise<AppendResult> {
    const rows = streams.flatMap((s) => {
      if (s.envelopes.length === 0) return [];
      if (s.envelopes[0]!.envelope.streamVersion !== s.expectedVersion + 1)
        throw new Error(
          `envelope versions of ${s.stream} do not follow expected version ${s.expectedVersion}`,
        );
      return s.envelopes;
    });
    // Check everything first, write nothing on a refusal: one append is all or nothing.
    const versions = new Map<string, number>();
    const ids = new Set<string>();
    for (const { envelope: e } of rows) {
      const current = versions.get(e.stream) ?? this.streams.get(e.stream)?.length ?? 0;
      if (e.streamVersion <= current)
        throw conflict('log.stream_conflict', 'the stream changed since it was read; retry', {
          stream: e.stream,
        });
      if (e.streamVersion !== current + 1)
        throw conflict('log.stream_conflict', 'the expected version is ahead of the stream', {});
      const key = `${e.origin}/${e.id}`;
      if (this.ids.has(key) || ids.has(key))
        throw conflict('log.duplicate_event', 'an event with that id from that origin is already in the log');
      ids.add(key);
      versions.set(e.stream, e.streamVersion);
    }
    const events: AppendResult['events'] = [];
    for (const { envelope: e, text } of rows) {
      const position = this.log.length + 1;
      const def = eventDefinition(e.type);
      const held: Held = {
        position,
        sequence: position,
        stream: e.stream,
        streamVersion: e.streamVersion,
        type: e.type,
        origin: e.origin,
        actorId: e.actorId,
        occurredAt: e.occurredAt,
        envelope: e,
        text,
        data: e.data,
        feed: !!def && def.federable && def.public,
      };
      this.log.push(held);
      const stream = this.streams.get(e.stream) ?? [];
      stream.push(held);
      this.streams.set(e.stream, stream);
      this.ids.add(`${e.origin}/${e.id}`);
      events.push({ id: e.id, stream: e.stream, streamVersion: e.streamVersion, position });
    }
    return { events };
  }

  async readStream(stream: string): Promise<StoredEvent[]> {
    return (this.streams.get(stream) ?? []).map(stored);
  }

  async readStreams(
    streams: readonly string[],
    after?: ReadonlyMap<string, number>,
  ): Promise<Map<string, StoredEvent[]>> {
    return new Map(
      streams.map((s) => [
        s,
        (this.streams.get(s) ?? []).filter((e) => e.streamVersion > (after?.get(s) ?? 0)).map(stored),
      ]),
    );
  }

  async readAll(options: ReadAllOptions): Promise<{ events: SequencedEvent[]; head: number }> {
    const events = this.log
      .filter((e) => e.sequence > options.since && (!options.feedOnly || e.feed))
      .slice(0, options.limit)
      .map(sequenced);
    return { events, head: this.log.length };
  }

  async readFeedPage(options: { since: number; limit: number }) {
    let head = 0;
    const rows: { sequence: number; text: string }[] = [];
    await this.streamFeedPage(options, {
      head: (h) => (head = h),
      row: (sequence, text) => rows.push({ sequence, text }),
    });
    return { rows, head };
  }

  async streamFeedPage(
    options: { since: number; limit: number },
    sink: { head(head: number): void; row(sequence: number, text: string): void },
  ): Promise<void> {
    if (!Number.isSafeInteger(options.since) || !Number.isSafeInteger(options.limit))
      throw new Error('feed page: since and limit must be integers');
    // One snapshot: the head and the rows as they were when the read began.
    const head = this.log.length;
    const page = this.log
      .slice(0, head)
      .filter((e) => e.feed && e.sequence > options.since)
      .slice(0, Math.max(0, options.limit));
    sink.head(head);
    for (const e of page) sink.row(e.sequence, e.text);
  }

  async readByActors(options: {
    actorIds: readonly string[];
    since: number;
    limit: number;
  }): Promise<SequencedEvent[]> {
    const actors = new Set(options.actorIds);
    return this.log
      .filter((e) => actors.has(e.actorId) && e.sequence > options.since)
      .slice(0, options.limit)
      .map(sequenced);
  }

  async readLatestByActors(options: {
    actorIds: readonly string[];
    before?: number | undefined;
    limit: number;
  }): Promise<SequencedEvent[]> {
    const actors = new Set(options.actorIds);
    const before = options.before ?? Number.POSITIVE_INFINITY;
    return this.log
      .filter((e) => actors.has(e.actorId) && e.sequence < before)
      .reverse()
      .slice(0, options.limit)
      .map(sequenced);
  }
}

function stored(e: Held): StoredEvent {
  const { feed: _feed, sequence: _sequence, ...rest } = e;
  return { ...rest };
}

function sequenced(e: Held): SequencedEvent {
  const { feed: _feed, ...rest } = e;
  return { ...rest };
}
