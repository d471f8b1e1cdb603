// This area's projections, in the order a rebuild applies them; projections/src/all-projections.ts composes them.
import type { Projection } from '../shared/projection.js';
import { mcpTokensProjection, provenanceProjection } from './tokens-projection.js';

export const tokensProjections: readonly Projection[] = [mcpTokensProjection, provenanceProjection];
