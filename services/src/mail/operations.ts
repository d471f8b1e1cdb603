// Every operation of this area, in catalogue order; services/src/catalogue.ts composes the areas' lists.
import type { AnyOperation } from '../pipeline/operation.js';
import { requestPasswordReset, resetPassword, sendVerificationEmail, verifyEmail } from './account-mail.js';
import { sendDelegatedMail } from './delegated-send.js';
import { listOutbox } from './list-outbox.js';

export const mailOperations: readonly AnyOperation[] = [
  sendDelegatedMail,
  sendVerificationEmail,
  verifyEmail,
  requestPasswordReset,
  resetPassword,
  listOutbox,
];
