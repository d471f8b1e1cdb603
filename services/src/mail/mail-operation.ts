// What the mail area's operations run on: the core and the slices they use (docs/architecture.md#operations).
import { defineOperation, type Operation, type OperationContext } from '../pipeline/operation.js';
import type { CoreServices } from '../pipeline/services.js';
import type { AccountsServices } from '../accounts/ports.js';
import type { AgentsServices } from '../agents/ports.js';
import type { AssistantServices } from '../assistant/ports/index.js';
import type { FederationServices, FederationSurfaceServices } from '../federation/ports/index.js';
import type { OAuthServices } from '../oauth/ports/index.js';
import type { SsoServices } from '../sso/ports.js';
import type { TokensServices } from '../tokens/ports/index.js';
import type { MailServices } from './ports.js';

export type MailOperationServices = CoreServices &
  Partial<MailServices> &
  AccountsServices &
  AgentsServices &
  TokensServices &
  OAuthServices &
  Partial<SsoServices> &
  Partial<FederationServices> &
  Partial<FederationSurfaceServices> &
  AssistantServices;

export type MailOperationContext = OperationContext<MailOperationServices>;

/** One of the mail area's catalogue entries, run on the services above. */
export const defineMailOperation = <I, O>(
  op: Operation<I, O, MailOperationServices>,
): Operation<I, O, MailOperationServices> => defineOperation(op);
