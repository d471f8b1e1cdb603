// This area's projections, in the order a rebuild applies them; projections/src/all-projections.ts composes them.
import type { Projection } from '../shared/projection.js';
import { assistantProjection } from './assistant-projection.js';
import { assistantAttachmentProjections } from './attachment-projections.js';
import { assistantVaultProjections } from './vault-projections.js';

export const assistantProjections: readonly Projection[] = [
  assistantProjection,
  ...assistantVaultProjections,
  ...assistantAttachmentProjections,
];
