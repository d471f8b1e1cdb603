// This area's projections, in the order a rebuild applies them; projections/src/all-projections.ts composes them.
import type { Projection } from '../shared/projection.js';
import { mailRequestsProjection } from './mail-requests-projection.js';

export const mailProjections: readonly Projection[] = [mailRequestsProjection];
