// This area's projections, in the order a rebuild applies them; projections/src/all-projections.ts composes them.
import type { Projection } from '../shared/projection.js';
import { oauthProjection } from './oauth-projection.js';

export const oauthProjections: readonly Projection[] = [oauthProjection];
