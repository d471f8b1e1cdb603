// The accounts area's ports: password hashing and the sign-in throttle.
import { defineArea } from './area.js';
import type { AccountsPorts, Clock } from '@tributary/services';
import type pg from 'pg';
import type { Config } from '../config/config.js';
import { createBcryptHasher } from '../runtime/bcrypt-password-hasher.js';
import { createPgThrottle } from '../runtime/pg-throttle.js';

export function composeAccounts(o: {
  pool: pg.Pool;
  config: Config;
  clock: Clock;
}): Omit<AccountsPorts, 'read'> {
  const { pool, config, clock } = o;
  return {
    passwords: createBcryptHasher(config.BCRYPT_ROUNDS),
    throttle: createPgThrottle(
      pool,
      {
        maxFailures: config.SIGN_IN_MAX_FAILURES,
        windowSeconds: config.SIGN_IN_WINDOW_SECONDS,
        baseBlockSeconds: config.SIGN_IN_BLOCK_SECONDS,
      },
      () => clock.now(),
    ),
  };
}

/** The accounts area: its ports, the first operator's setup code and its reads. */
export const accountsArea = defineArea((ctx) => ({
  services: {
    accounts: { ...composeAccounts(ctx), operatorClaim: ctx.operatorClaim, read: ctx.read.accounts },
  },
  config: { sessionTtlSeconds: ctx.config.SESSION_TTL_SECONDS },
}));
