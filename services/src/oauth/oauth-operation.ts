// What the oauth area's operations run on: the core and the slices they use (docs/architecture.md#operations).
import { areaOperations, type OperationContext } from '../pipeline/operation.js';
import type { CoreServices } from '../pipeline/services.js';
import type { AgentsServices } from '../agents/ports.js';
import type { TokensServices } from '../tokens/ports/index.js';
import type { OAuthServices } from './ports/index.js';

export type OAuthOperationServices = CoreServices & OAuthServices & TokensServices & AgentsServices;

export type OAuthOperationContext = OperationContext<OAuthOperationServices>;

/** One of the oauth area's catalogue entries, run on the services above. */
export const defineOAuthOperation = areaOperations<OAuthOperationServices>();
