// What the agents area's operations run on: the core and the slices they use (docs/architecture.md#operations).
import { areaOperations, type OperationContext } from '../pipeline/operation.js';
import type { CoreServices } from '../pipeline/services.js';
import type { AccountsServices } from '../accounts/ports.js';
import type { AgentsServices } from './ports.js';

export type AgentsOperationServices = CoreServices & AgentsServices & AccountsServices;

export type AgentsOperationContext = OperationContext<AgentsOperationServices>;

/** One of the agents area's catalogue entries, run on the services above. */
export const defineAgentsOperation = areaOperations<AgentsOperationServices>();
