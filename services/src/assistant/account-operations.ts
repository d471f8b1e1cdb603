// The connected external-assistant account's operations (docs/assistant.md#connected-account).
import type { AnyOperation } from '../pipeline/operation.js';
import { disconnectAccount } from './disconnect-account.js';
import { listAccountModels } from './list-account-models.js';
import { pollAccountSignIn } from './poll-account-sign-in.js';
import { readAccount } from './read-account.js';
import { startAccountSignIn } from './start-account-sign-in.js';

export const assistantAccountOperations: readonly AnyOperation[] = [
  readAccount,
  startAccountSignIn,
  pollAccountSignIn,
  listAccountModels,
  disconnectAccount,
];
