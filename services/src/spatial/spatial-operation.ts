// What the spatial area's operations run on: the core and the slices they use (docs/architecture.md#operations).
import { areaOperations, type OperationContext } from '../pipeline/operation.js';
import { documentSignerComposed } from '../shared/universal-manifest.js';
import type { CoreServices } from '../pipeline/services.js';
import type { AgentsServices } from '../agents/ports.js';
import type { BuilderServices } from '../builder/ports/index.js';
import type { FederationServices, FederationSurfaceServices } from '../federation/ports/index.js';
import type { ManifestsServices } from '../manifests/ports.js';
import type { PresenceServices, SpatialServices } from './ports.js';

export type SpatialOperationServices = CoreServices &
  Partial<SpatialServices> &
  PresenceServices &
  ManifestsServices &
  BuilderServices &
  Partial<FederationServices> &
  Partial<FederationSurfaceServices> &
  AgentsServices;

export type SpatialOperationContext = OperationContext<SpatialOperationServices>;

/** One of the spatial area's catalogue entries, run on the services above. */
export const defineSpatialOperation = areaOperations<SpatialOperationServices>();

/** What its operations that sign or verify with the instance key run on: the surface's signer is present. */
export type SpatialSigningServices = SpatialOperationServices & FederationSurfaceServices;

export type SpatialSigningContext = OperationContext<SpatialSigningServices>;

/** One that signs or verifies a presentation: where the surface is not composed, `federation.unavailable`. */
export const defineSpatialSigningOperation = areaOperations<SpatialSigningServices>(documentSignerComposed);
