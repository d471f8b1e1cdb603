// What the sso area's operations run on: the core and the slices they use (docs/architecture.md#operations).
import { defineOperation, type Operation, type OperationContext } from '../pipeline/operation.js';
import type { CoreServices } from '../pipeline/services.js';
import type { AccountsServices } from '../accounts/ports.js';
import type { AgentsServices } from '../agents/ports.js';
import type { AssistantServices } from '../assistant/ports/index.js';
import type { FederationServices, FederationSurfaceServices } from '../federation/ports/index.js';
import type { SsoServices } from './ports.js';

export type SsoOperationServices = CoreServices &
  Partial<SsoServices> &
  AccountsServices &
  AgentsServices &
  Partial<FederationServices> &
  Partial<FederationSurfaceServices> &
  AssistantServices;

export type SsoOperationContext = OperationContext<SsoOperationServices>;

/** One of the sso area's catalogue entries, run on the services above. */
export const defineSsoOperation = <I, O>(
  op: Operation<I, O, SsoOperationServices>,
): Operation<I, O, SsoOperationServices> => defineOperation(op);
