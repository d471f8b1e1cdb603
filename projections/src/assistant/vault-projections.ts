// The vault document's projection; the area's list (projections.ts) composes it.
import type { Projection } from '../shared/projection.js';
import { assistantVaultProjection } from './vault-projection.js';

export const assistantVaultProjections: readonly Projection[] = [assistantVaultProjection];
