// The account's password, for sign-in and for the operations that ask for it again before doing
// something that cannot be undone.
import { accountStream, DomainError, unauthenticated } from '@tributary/domain';
import type { EventStore } from '../ports/event-store.js';
import type { Services } from '../pipeline/services.js';

/** The hash lives in the account's own stream: read from the log, so there is one source of truth. */
export async function passwordHashOf(store: EventStore, accountId: string): Promise<string> {
  const events = await store.readStream(accountStream(accountId));
  // The latest: a reset (account.password_changed) replaces the hash sign-up set.
  const latest = events
    .filter((e) => e.type === 'account.registered' || e.type === 'account.password_changed')
    .at(-1);
  return String(latest?.data.passwordHash ?? '');
}

/** auth.throttled (429, with when to retry) while `key` has failed too often; nothing otherwise. */
export async function refuseWhileThrottled(
  throttle: Services['accounts']['throttle'],
  key: string,
  message: string,
): Promise<void> {
  const wait = await throttle.retryAfter(key);
  if (wait > 0) throw new DomainError('auth.throttled', 'rate_limited', message, { retryAfter: wait });
}

/**
 * Checks a signed-in person's password again. Failures are throttled per account, as sign-in failures
 * are per identifier, so a stolen session cookie cannot be used to guess the password.
 */
export async function confirmPassword(
  services: Pick<Services, 'store' | 'accounts'>,
  accountId: string,
  password: string,
): Promise<void> {
  const throttleKey = `reauth:${accountId}`;
  await refuseWhileThrottled(
    services.accounts.throttle,
    throttleKey,
    'too many wrong passwords; wait before trying again',
  );
  if (
    !(await services.accounts.passwords.verify(password, await passwordHashOf(services.store, accountId)))
  ) {
    await services.accounts.throttle.recordFailure(throttleKey);
    throw unauthenticated('auth.invalid_credentials', 'wrong password');
  }
  await services.accounts.throttle.reset(throttleKey);
}
