// Every operation of this area, in catalogue order; services/src/catalogue.ts composes the areas' lists.
import type { AnyOperation } from '../pipeline/operation.js';
import { instanceContext } from './read-context.js';
import { revokeKey } from './revoke-key.js';
import { rotateKey } from './rotate-key.js';
import { readInstanceSettings, updateInstanceSettings } from './settings.js';

export const instanceOperations: readonly AnyOperation[] = [
  instanceContext,
  readInstanceSettings,
  updateInstanceSettings,
  rotateKey,
  revokeKey,
];
