// Which fold applies to which stream, by the stream's prefix.
import { evolveAccount, evolveSession, initialAccountState, initialSessionState } from './account.js';
import { evolveAgent, evolveClaim, initialAgentState, initialClaimState } from './agent.js';
import { evolveInstance, initialInstanceState } from './instance.js';
import type { StoredEventLike } from './stored-event-like.js';

export interface Aggregate<S> {
  initial: () => S;
  evolve: (state: S, event: StoredEventLike) => S;
}

const aggregates: [prefix: string, agg: Aggregate<unknown>][] = [];
export function registerAggregate<S>(prefix: string, agg: Aggregate<S>) {
  aggregates.push([prefix, agg as Aggregate<unknown>]);
}
registerAggregate('instance', { initial: initialInstanceState, evolve: evolveInstance });
registerAggregate('agent-', { initial: initialAgentState, evolve: evolveAgent });
registerAggregate('account-', { initial: initialAccountState, evolve: evolveAccount });
registerAggregate('session-', { initial: initialSessionState, evolve: evolveSession });
registerAggregate('handle-', { initial: initialClaimState, evolve: evolveClaim });
registerAggregate('email-', { initial: initialClaimState, evolve: evolveClaim });

export function aggregateFor(stream: string): Aggregate<unknown> {
  const found = aggregates.find(([prefix]) =>
    prefix.endsWith('-') ? stream.startsWith(prefix) : stream === prefix,
  );
  if (!found) throw new Error(`no aggregate for stream ${stream}`);
  return found[1];
}

export function fold<S>(stream: string, events: readonly StoredEventLike[]): S {
  return foldFrom<S>(stream, aggregateFor(stream).initial() as S, events);
}

/** A stream's state after `events`, given its state before them (the state of the events before). */
export function foldFrom<S>(stream: string, state: S, events: readonly StoredEventLike[]): S {
  const agg = aggregateFor(stream);
  return events.reduce((s, e) => agg.evolve(s, e), state as unknown) as S;
}
