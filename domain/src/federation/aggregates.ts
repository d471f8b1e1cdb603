// The streams of this area and the fold each one uses.
import { streamAggregate, type StreamAggregate } from '../shared/aggregate.js';
import { evolveFollows, initialFollowsState } from './follows.js';
import { peerMutationStreams } from './federation-surface.js';
import { peerStreams } from './peer.js';

export const federationAggregates: readonly StreamAggregate[] = [
  peerStreams,
  peerMutationStreams,
  streamAggregate('follows-', { initial: initialFollowsState, evolve: evolveFollows }),
];
