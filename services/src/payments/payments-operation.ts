// What the payments area's operations run on: the core and the slices they use (docs/architecture.md#operations).
import { defineOperation, type Operation, type OperationContext } from '../pipeline/operation.js';
import type { CoreServices } from '../pipeline/services.js';
import type { AgentsServices } from '../agents/ports.js';
import type { FederationServices } from '../federation/ports/index.js';
import type { PaymentsServices } from './ports.js';

export type PaymentsOperationServices = CoreServices &
  Partial<PaymentsServices> &
  AgentsServices &
  Partial<FederationServices>;

export type PaymentsOperationContext = OperationContext<PaymentsOperationServices>;

/** One of the payments area's catalogue entries, run on the services above. */
export const definePaymentsOperation = <I, O>(
  op: Operation<I, O, PaymentsOperationServices>,
): Operation<I, O, PaymentsOperationServices> => defineOperation(op);
