// This area's projections, in the order a rebuild applies them; projections/src/all-projections.ts composes them.
import type { Projection } from '../shared/projection.js';
import { builderAddressesProjection } from './addresses-projection.js';
import { builderDomainsProjection } from './builder-domains-projection.js';
import { builderSitesProjection } from './builder-projection.js';
import { builderHistoryProjection } from './history-projection.js';
import { builderMediaProjection } from './media-projection.js';
import { builderFormsProjection } from './forms-projection.js';
import { siteServingProjection } from './site-serving-projection.js';

export const builderProjections: readonly Projection[] = [
  builderSitesProjection,
  builderHistoryProjection,
  siteServingProjection,
  builderDomainsProjection,
  builderMediaProjection,
  builderAddressesProjection,
  builderFormsProjection,
];
