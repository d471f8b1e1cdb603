// This area's projections, in the order a rebuild applies them; projections/src/all-projections.ts composes them.
import type { Projection } from '../shared/projection.js';
import { instanceProjection } from './instance-projection.js';

export const instanceProjections: readonly Projection[] = [instanceProjection];
