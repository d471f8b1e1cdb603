// Every operation of this area, in catalogue order; services/src/catalogue.ts composes the areas' lists.
import type { AnyOperation } from '../pipeline/operation.js';
import { confirmPlan } from './confirm-plan.js';
import { decideActions } from './decide-actions.js';
import { deleteThread } from './delete-thread.js';
import { listThreads } from './list-threads.js';
import { readPlan } from './read-plan.js';
import { readThread } from './read-thread.js';

export const assistantOperations: readonly AnyOperation[] = [
  listThreads,
  readThread,
  deleteThread,
  readPlan,
  decideActions,
  confirmPlan,
];
