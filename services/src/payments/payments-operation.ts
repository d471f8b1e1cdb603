// What the payments area's operations run on: the core and the slices they use (docs/architecture.md#operations).
import { areaOperations, type OperationContext, type Requirement } from '../pipeline/operation.js';
import type { CoreServices } from '../pipeline/services.js';
import type { AgentsServices } from '../agents/ports.js';
import type { FederationServices } from '../federation/ports/index.js';
import type { PaymentsServices } from './ports.js';

/** The area as code outside its operations sees it: the slice is absent where payments are not composed. */
export type PaymentsAreaServices = CoreServices &
  Partial<PaymentsServices> &
  AgentsServices &
  Partial<FederationServices>;

/** What its operations run on: the catalogue runs them only where the slice is composed. */
export type PaymentsOperationServices = PaymentsAreaServices & PaymentsServices;

export type PaymentsOperationContext = OperationContext<PaymentsOperationServices>;

/** Where payments are not composed, the area's operations answer `payments.disabled` before they run. */
export const paymentsComposed: Requirement<'payments'> = {
  slices: ['payments'],
  code: 'payments.disabled',
  message: 'payments are not configured on this instance',
};

/** One of the payments area's catalogue entries, run on the services above. */
export const definePaymentsOperation = areaOperations<PaymentsOperationServices>(paymentsComposed);

/** One that runs whether or not the slice is composed (a settlement only records what it is told). */
export const definePaymentsAreaOperation = areaOperations<PaymentsAreaServices>();
