// Every operation of this area, in catalogue order; services/src/catalogue.ts composes the areas' lists.
import type { AnyOperation } from '../pipeline/operation.js';
import { exportAccountData } from './export-data.js';
import { signIn } from './sign-in.js';
import { signOut } from './sign-out.js';
import { setDiscoverable } from './set-discoverable.js';
import { setTimeZone } from './set-time-zone.js';
import { signUp } from './sign-up.js';

export const accountsOperations: readonly AnyOperation[] = [
  signUp,
  signIn,
  signOut,
  exportAccountData,
  setDiscoverable,
  setTimeZone,
];
