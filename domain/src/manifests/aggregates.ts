// The streams of this area and the fold each one uses.
import type { StreamAggregate } from '../shared/aggregate.js';
import { manifestPublicationStreams } from './publication.js';

export const manifestsAggregates: readonly StreamAggregate[] = [manifestPublicationStreams];
