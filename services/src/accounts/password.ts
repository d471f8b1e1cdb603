// The account's password, for sign-in and for the operations that ask for it again before doing
// something that cannot be undone.
import { accountStream, unauthenticated } from '@tributary/domain';
import type { EventStore } from '../ports/event-store.js';
import type { AccountsOperationServices } from './accounts-operation.js';
import {
  accountBudget,
  refuseWhileOverBudget,
  restoreBudget,
  spendBudget,
} from '../shared/password-budget.js';

/** The hash lives in the account's own stream: read from the log, so there is one source of truth. */
export async function passwordHashOf(store: EventStore, accountId: string): Promise<string> {
  const events = await store.readStream(accountStream(accountId));
  // The latest: a reset (account.password_changed) replaces the hash sign-up set.
  const latest = events
    .filter((e) => e.type === 'account.registered' || e.type === 'account.password_changed')
    .at(-1);
  return String(latest?.data.passwordHash ?? '');
}

/**
 * Checks a signed-in person's password again. Failures count against the account's one password budget
 * (shared with sign-in), so a stolen session cookie cannot be used to guess the password.
 */
export async function confirmPassword(
  services: Pick<AccountsOperationServices, 'store' | 'accounts'>,
  accountId: string,
  password: string,
): Promise<void> {
  const keys = [accountBudget(accountId)];
  await refuseWhileOverBudget(services, keys);
  if (
    !(await services.accounts.passwords.verify(password, await passwordHashOf(services.store, accountId)))
  ) {
    await spendBudget(services, keys);
    throw unauthenticated('auth.invalid_credentials', 'wrong password');
  }
  await restoreBudget(services, keys);
}
