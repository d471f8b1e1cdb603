// This area's projections, in the order a rebuild applies them; projections/src/all-projections.ts composes them.
import type { Projection } from '../shared/projection.js';
import { followsProjection } from './follows-projection.js';
import { peerMutationsProjection } from './peer-mutations-projection.js';
import { peersProjection } from './peers-projection.js';
import { relayProjection } from './relay-projection.js';

export const federationProjections: readonly Projection[] = [
  peersProjection,
  peerMutationsProjection,
  relayProjection,
  followsProjection,
];
