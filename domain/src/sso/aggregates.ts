// The streams of this area and the fold each one uses.
import type { StreamAggregate } from '../shared/aggregate.js';
import { ssoAggregateList as list } from './streams.js';

export const ssoAggregates: readonly StreamAggregate[] = [...list];
