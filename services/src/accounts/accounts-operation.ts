// What the accounts area's operations run on: the core and the slices they use (docs/architecture.md#operations).
import { areaOperations, type OperationContext } from '../pipeline/operation.js';
import type { CoreServices } from '../pipeline/services.js';
import type { AgentsServices } from '../agents/ports.js';
import type { AssistantServices } from '../assistant/ports/index.js';
import type { FederationServices, FederationSurfaceServices } from '../federation/ports/index.js';
import type { MailServices } from '../mail/ports.js';
import type { OAuthServices } from '../oauth/ports/index.js';
import type { SsoServices } from '../sso/ports.js';
import type { TokensServices } from '../tokens/ports/index.js';
import type { AccountsServices } from './ports.js';

export type AccountsOperationServices = CoreServices &
  AccountsServices &
  AgentsServices &
  TokensServices &
  Partial<SsoServices> &
  Partial<FederationSurfaceServices> &
  Partial<MailServices> &
  OAuthServices &
  Partial<FederationServices> &
  AssistantServices;

export type AccountsOperationContext = OperationContext<AccountsOperationServices>;

/** One of the accounts area's catalogue entries, run on the services above. */
export const defineAccountsOperation = areaOperations<AccountsOperationServices>();
