// This area's projections, in the order a rebuild applies them; projections/src/all-projections.ts composes them.
import type { Projection } from '../shared/projection.js';
import { agentsProjection } from './agents-projection.js';

export const agentsProjections: readonly Projection[] = [agentsProjection];
