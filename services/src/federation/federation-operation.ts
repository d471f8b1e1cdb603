// What the federation area's operations run on: the core and the slices they use (docs/architecture.md#operations).
import { defineOperation, type Operation, type OperationContext } from '../pipeline/operation.js';
import type { CoreServices } from '../pipeline/services.js';
import type { AccountsServices } from '../accounts/ports.js';
import type { AgentsServices } from '../agents/ports.js';
import type { FederationServices, FederationSurfaceServices } from './ports/index.js';

export type FederationOperationServices = CoreServices &
  Partial<FederationServices> &
  Partial<FederationSurfaceServices> &
  AgentsServices &
  AccountsServices;

export type FederationOperationContext = OperationContext<FederationOperationServices>;

/** One of the federation area's catalogue entries, run on the services above. */
export const defineFederationOperation = <I, O>(
  op: Operation<I, O, FederationOperationServices>,
): Operation<I, O, FederationOperationServices> => defineOperation(op);
