// What the assistant area's operations run on: the core and the slices they use (docs/architecture.md#operations).
import { areaOperations, type OperationContext } from '../pipeline/operation.js';
import type { CoreServices } from '../pipeline/services.js';
import type { AccountsServices } from '../accounts/ports.js';
import type { AgentsServices } from '../agents/ports.js';
import type { BuilderServices } from '../builder/ports/index.js';
import type { SpatialServices } from '../spatial/ports.js';
import type { TokensServices } from '../tokens/ports/index.js';
import type { AssistantServices } from './ports/index.js';

export type AssistantOperationServices = CoreServices &
  AssistantServices &
  AgentsServices &
  TokensServices &
  AccountsServices &
  BuilderServices &
  Partial<SpatialServices>;

export type AssistantOperationContext = OperationContext<AssistantOperationServices>;

/** One of the assistant area's catalogue entries, run on the services above. */
export const defineAssistantOperation = areaOperations<AssistantOperationServices>();
