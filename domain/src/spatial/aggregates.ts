// The streams of this area and the fold each one uses.
import { streamAggregate, type StreamAggregate } from '../shared/aggregate.js';
import { presentationStreams } from './presence.js';
import { evolvePrimaryWorld, initialPrimaryWorldState } from './primary.js';
import { SPATIAL_PRIMARY_STREAM } from './streams.js';
import { evolveTag, initialTagState } from './tag.js';
import { evolveWorld, initialWorldState } from './world.js';

export const spatialAggregates: readonly StreamAggregate[] = [
  streamAggregate('world-', { initial: initialWorldState, evolve: evolveWorld }),
  streamAggregate('spatial-tag-', { initial: initialTagState, evolve: evolveTag }),
  streamAggregate(SPATIAL_PRIMARY_STREAM, { initial: initialPrimaryWorldState, evolve: evolvePrimaryWorld }),
  presentationStreams,
];
