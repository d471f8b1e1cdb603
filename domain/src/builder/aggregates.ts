// The streams of this area and the fold each one uses.
import { streamAggregate, type StreamAggregate } from '../shared/aggregate.js';
import { builderDomainAggregate } from './domain-binding.js';
import { mediaStreams } from './media.js';
import { evolveDraft, evolveSite, initialDraftState, initialSiteState } from './site.js';

export const builderAggregates: readonly StreamAggregate[] = [
  streamAggregate('site-', { initial: initialSiteState, evolve: evolveSite }),
  streamAggregate('draft-', { initial: initialDraftState, evolve: evolveDraft }),
  builderDomainAggregate,
  mediaStreams,
];
