// The streams of this area and the fold each one uses.
import { streamAggregate, type StreamAggregate } from '../shared/aggregate.js';
import { evolveAgent, evolveClaim, initialAgentState, initialClaimState } from './agent.js';

export const agentsAggregates: readonly StreamAggregate[] = [
  streamAggregate('agent-', { initial: initialAgentState, evolve: evolveAgent }),
  streamAggregate('handle-', { initial: initialClaimState, evolve: evolveClaim }),
];
