// This area's projections, in the order a rebuild applies them; projections/src/all-projections.ts composes them.
import type { Projection } from '../shared/projection.js';
import { accountsProjection, sessionsProjection } from './accounts-projection.js';

export const accountsProjections: readonly Projection[] = [accountsProjection, sessionsProjection];
