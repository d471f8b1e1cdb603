// What the admin area's operations run on: the core and the slices they use (docs/architecture.md#operations).
import { areaOperations, type OperationContext } from '../pipeline/operation.js';
import type { CoreServices } from '../pipeline/services.js';
import type { AccountsServices } from '../accounts/ports.js';
import type { AgentsServices } from '../agents/ports.js';
import type { OAuthServices } from '../oauth/ports/index.js';
import type { TokensServices } from '../tokens/ports/index.js';

export type AdminOperationServices = CoreServices &
  AccountsServices &
  AgentsServices &
  TokensServices &
  OAuthServices;

export type AdminOperationContext = OperationContext<AdminOperationServices>;

/** One of the admin area's catalogue entries, run on the services above. */
export const defineAdminOperation = areaOperations<AdminOperationServices>();
