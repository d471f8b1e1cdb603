// The assistant's settings, status, provenance, credential and vault operations, in catalogue order.
import type { AnyOperation } from '../pipeline/operation.js';
import { listAssistantProvenance } from './list-provenance.js';
import { readCredential } from './read-credential.js';
import { readSettings } from './read-settings-op.js';
import { readStatus } from './read-status.js';
import { readVault } from './read-vault.js';
import { updateSettings } from './update-settings.js';

export const assistantVaultOperations: readonly AnyOperation[] = [
  readSettings,
  updateSettings,
  readStatus,
  listAssistantProvenance,
  readCredential,
  readVault,
];
