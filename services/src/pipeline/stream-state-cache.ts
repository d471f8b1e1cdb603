// Folded stream states kept between commands, so a command reads only the events its stream gained
// since: without it every command reads and folds its whole stream, and a persona updated a thousand
// times pays for a thousand events on every update (figures: docs/log.md#appends).
//
// Sound because a stream only grows: its versions are dense and unique, and the log refuses UPDATE and
// DELETE, so the state folded up to version v stays the state up to v, and the state now is that state
// folded with the events after v. Each command still reads from the database — only the events past
// what is held — so what other processes appended is never missed. States are frozen, so no decision
// can change one that a later command starts from.

export interface StreamState {
  state: unknown;
  /** The stream's version this state includes (0: no event). */
  version: number;
}

export interface StreamStateCache {
  get(stream: string): StreamState | undefined;
  set(stream: string, held: StreamState): void;
}

/** How many streams' states one process keeps by default (least recently used go first). */
const STREAM_STATE_CACHE_SIZE = 10_000;

export function createStreamStateCache(maxStreams = STREAM_STATE_CACHE_SIZE): StreamStateCache {
  if (!Number.isSafeInteger(maxStreams) || maxStreams < 1) throw new Error('stream cache: bad size');
  // A Map iterates in insertion order: re-inserting on use keeps the least recently used first.
  const held = new Map<string, StreamState>();
  return {
    get(stream) {
      const found = held.get(stream);
      if (found) {
        held.delete(stream);
        held.set(stream, found);
      }
      return found;
    },
    set(stream, value) {
      // Never step back: of two commands folding the same stream, keep the further one.
      const current = held.get(stream);
      if (current && current.version > value.version) return;
      held.delete(stream);
      held.set(stream, Object.freeze({ state: deepFreeze(value.state), version: value.version }));
      if (held.size > maxStreams) held.delete(held.keys().next().value!);
    },
  };
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
