// What the tokens area's operations run on: the core and the slices they use (docs/architecture.md#operations).
import { areaOperations, type OperationContext } from '../pipeline/operation.js';
import type { CoreServices } from '../pipeline/services.js';
import type { AgentsServices } from '../agents/ports.js';
import type { TokensServices } from './ports/index.js';

export type TokensOperationServices = CoreServices & TokensServices & AgentsServices;

export type TokensOperationContext = OperationContext<TokensOperationServices>;

/** One of the tokens area's catalogue entries, run on the services above. */
export const defineTokensOperation = areaOperations<TokensOperationServices>();
