// What the instance area's operations run on: the core and the slices they use (docs/architecture.md#operations).
import { areaOperations, type OperationContext } from '../pipeline/operation.js';
import type { CoreServices } from '../pipeline/services.js';
import type { InstanceServices } from './ports.js';

export type InstanceOperationServices = CoreServices & InstanceServices;

export type InstanceOperationContext = OperationContext<InstanceOperationServices>;

/** One of the instance area's catalogue entries, run on the services above. */
export const defineInstanceOperation = areaOperations<InstanceOperationServices>();
