// The streams of this area and the fold each one uses.
import type { StreamAggregate } from '../shared/aggregate.js';
import { peerMutationStreams } from './federation-surface.js';
import { peerStreams } from './peer.js';

export const federationAggregates: readonly StreamAggregate[] = [peerStreams, peerMutationStreams];
