// Every operation of this area, in catalogue order; services/src/catalogue.ts composes the areas' lists.
import type { AnyOperation } from '../pipeline/operation.js';
import { disableAccount, enableAccount } from './disable-account.js';
import { grantController } from './grant-controller.js';
import { moveController } from './move-controller.js';

export const adminOperations: readonly AnyOperation[] = [
  grantController,
  moveController,
  disableAccount,
  enableAccount,
];
