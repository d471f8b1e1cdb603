// This area's projections, in the order a rebuild applies them; projections/src/all-projections.ts composes them.
import type { Projection } from '../shared/projection.js';
import { manifestPublicationsProjection } from './manifest-publications-projection.js';

export const manifestsProjections: readonly Projection[] = [manifestPublicationsProjection];
