// This area's projections, in the order a rebuild applies them; projections/src/all-projections.ts composes them.
import type { Projection } from '../shared/projection.js';
import { presenceProjection } from './presence-projection.js';
import { spatialProjection } from './spatial-projection.js';

export const spatialProjections: readonly Projection[] = [spatialProjection, presenceProjection];
