// What the builder area's operations run on: the core and the slices they use (docs/architecture.md#operations).
import { areaOperations, type OperationContext } from '../pipeline/operation.js';
import type { CoreServices } from '../pipeline/services.js';
import type { AgentsServices } from '../agents/ports.js';
import type { FederationServices } from '../federation/ports/index.js';
import type { BuilderServices } from './ports/index.js';

export type BuilderOperationServices = CoreServices &
  BuilderServices &
  Partial<FederationServices> &
  AgentsServices;

export type BuilderOperationContext = OperationContext<BuilderOperationServices>;

/** One of the builder area's catalogue entries, run on the services above. */
export const defineBuilderOperation = areaOperations<BuilderOperationServices>();
