// This area's projections, in the order a rebuild applies them; projections/src/all-projections.ts composes them.
import type { Projection } from '../shared/projection.js';
import { paymentsProjection } from './payments-projection.js';

export const paymentsProjections: readonly Projection[] = [paymentsProjection];
