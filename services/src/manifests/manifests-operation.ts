// What the manifests area's operations run on: the core and the slices they use (docs/architecture.md#operations).
import { areaOperations, type OperationContext } from '../pipeline/operation.js';
import { documentSignerComposed } from '../shared/universal-manifest.js';
import type { CoreServices } from '../pipeline/services.js';
import type { AgentsServices } from '../agents/ports.js';
import type { BuilderServices } from '../builder/ports/index.js';
import type { FederationSurfaceServices } from '../federation/ports/index.js';
import type { SpatialServices } from '../spatial/ports.js';
import type { ManifestsServices } from './ports.js';

export type ManifestsOperationServices = CoreServices &
  ManifestsServices &
  BuilderServices &
  Partial<SpatialServices> &
  AgentsServices &
  Partial<FederationSurfaceServices>;

export type ManifestsOperationContext = OperationContext<ManifestsOperationServices>;

/** One of the manifests area's catalogue entries, run on the services above. */
export const defineManifestsOperation = areaOperations<ManifestsOperationServices>();

/** What its operations that sign with the instance key run on: the surface's signer is present. */
export type ManifestsSigningServices = ManifestsOperationServices & FederationSurfaceServices;

export type ManifestsSigningContext = OperationContext<ManifestsSigningServices>;

/** One that signs a manifest: where the surface is not composed, `federation.unavailable` before it runs. */
export const defineManifestsSigningOperation =
  areaOperations<ManifestsSigningServices>(documentSignerComposed);
