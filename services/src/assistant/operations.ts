// Every operation of this area, in catalogue order — chat, threads and plans, settings and vault, the
// connected account, attachments; services/src/catalogue.ts composes the areas' lists.
import type { AnyOperation } from '../pipeline/operation.js';
import { assistantAccountOperations } from './account-operations.js';
import { assistantAttachmentOperations } from './attachment-operations.js';
import { assistantChatOperations } from './chat-operations.js';
import { confirmPlan } from './confirm-plan.js';
import { decideActions } from './decide-actions.js';
import { deleteThread } from './delete-thread.js';
import { listThreads } from './list-threads.js';
import { readPlan } from './read-plan.js';
import { readThread } from './read-thread.js';
import { assistantVaultOperations } from './vault-operations.js';

export const assistantOperations: readonly AnyOperation[] = [
  ...assistantChatOperations,
  listThreads,
  readThread,
  deleteThread,
  readPlan,
  decideActions,
  confirmPlan,
  ...assistantVaultOperations,
  ...assistantAccountOperations,
  ...assistantAttachmentOperations,
];
