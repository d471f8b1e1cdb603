// The streams of this area and the fold each one uses.
import { streamAggregate, type StreamAggregate } from '../shared/aggregate.js';
import { evolveInstance, initialInstanceState } from './instance.js';

export const instanceAggregates: readonly StreamAggregate[] = [
  streamAggregate('instance', { initial: initialInstanceState, evolve: evolveInstance }),
];
