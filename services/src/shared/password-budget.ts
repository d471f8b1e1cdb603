// One allowance of wrong passwords per account and one per identifier text, whichever route checked the
// password: sign-in, sso/issue, remote-password/verify, a delegated sign-up's repeat, and the password
// asked again before an irreversible step. Guesses on one route are guesses on all of them
// (SIGN_IN_MAX_FAILURES in SIGN_IN_WINDOW_SECONDS, docs/configuration.md).
import { DomainError, normalizeEmail } from '@tributary/domain';
import type { Services } from '../services.js';

/** An email or a handle as every password route compares it. */
export const normalizeIdentifier = (identifier: string): string => {
  const t = identifier.trim();
  return t.includes('@') ? normalizeEmail(t) : t.toLowerCase();
};

/** The budget of an identifier text (no account need have it; the digest keeps the text out of storage). */
export const identifierBudget = (services: Pick<Services, 'ids'>, identifier: string): string =>
  `password:${services.ids.sha256(normalizeIdentifier(identifier))}`;

/** The budget of an account, however it was named. */
export const accountBudget = (accountId: string): string => `password-account:${accountId}`;

/** auth.throttled (429, with when to retry) while any of `keys` is spent; nothing otherwise. */
export async function refuseWhileOverBudget(
  services: Pick<Services, 'accounts'>,
  keys: readonly string[],
  message = 'too many wrong passwords; wait before trying again',
): Promise<void> {
  for (const key of keys) {
    const wait = await services.accounts.throttle.retryAfter(key);
    if (wait > 0) throw new DomainError('auth.throttled', 'rate_limited', message, { retryAfter: wait });
  }
}

/** A wrong password (or an unknown account): one failure on each budget. */
export async function spendBudget(services: Pick<Services, 'accounts'>, keys: readonly string[]) {
  for (const key of keys) await services.accounts.throttle.recordFailure(key);
}

/** The right password: the budgets it named start again. */
export async function restoreBudget(services: Pick<Services, 'accounts'>, keys: readonly string[]) {
  for (const key of keys) await services.accounts.throttle.reset(key);
}
