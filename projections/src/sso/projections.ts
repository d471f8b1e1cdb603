// This area's projections, in the order a rebuild applies them; projections/src/all-projections.ts composes them.
import type { Projection } from '../shared/projection.js';
import { ssoProjection } from './sso-projection.js';

export const ssoProjections: readonly Projection[] = [ssoProjection];
