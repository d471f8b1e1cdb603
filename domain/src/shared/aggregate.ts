import type { StoredEventLike } from './stored-event-like.js';

export interface Aggregate<S> {
  initial: () => S;
  evolve: (state: S, event: StoredEventLike) => S;
}

/** Which fold applies to a stream: `prefix` ending in '-' matches by prefix, otherwise the whole name. */
export interface StreamAggregate {
  prefix: string;
  aggregate: Aggregate<unknown>;
}

export const streamAggregate = <S>(prefix: string, aggregate: Aggregate<S>): StreamAggregate => ({
  prefix,
  aggregate: aggregate as Aggregate<unknown>,
});
