// What the manifests area's operations run on: the core and the slices they use (docs/architecture.md#operations).
import { defineOperation, type Operation, type OperationContext } from '../pipeline/operation.js';
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
export const defineManifestsOperation = <I, O>(
  op: Operation<I, O, ManifestsOperationServices>,
): Operation<I, O, ManifestsOperationServices> => defineOperation(op);
