// The OAuth area's ports: the client directory (registered clients and Client ID Metadata Documents) and
// the device flow's throttles.
import { defineArea } from './area.js';
import { createOAuthClientDirectory, type OutboundHttp } from '@tributary/adapters';
import type { Clock, OAuthPorts, ReadModels } from '@tributary/services';
import type pg from 'pg';
import type { Config } from '../config/config.js';
import { createPgPollPacer } from '../runtime/pg-poll-pacer.js';
import { createPgThrottle } from '../runtime/pg-throttle.js';

export function composeOAuth(o: {
  pool: pg.Pool;
  config: Config;
  clock: Clock;
  read: ReadModels;
  outbound: OutboundHttp;
}): OAuthPorts {
  const { pool, config, clock, read } = o;
  return {
    read: read.oauth,
    clients: createOAuthClientDirectory({
      registered: (clientId) => read.oauth.oauthClient(clientId),
      clock,
      allowLoopbackHttp: config.NODE_ENV !== 'production',
      outbound: o.outbound,
      timeoutMs: config.OAUTH_CLIENT_METADATA_TIMEOUT_MS,
      maxBytes: config.OAUTH_CLIENT_METADATA_MAX_BYTES,
    }),
    // Device flow: poll pacing, and wrong user codes (5 per account, 20 per address, in 15 minutes;
    // then blocked for 15 minutes, doubling). In Postgres so every process agrees and restarts forget nothing.
    deviceFlow: {
      polls: createPgPollPacer(pool, { retainSeconds: config.OAUTH_DEVICE_CODE_SECONDS }),
      wrongCodePerAccount: createPgThrottle(
        pool,
        { maxFailures: 5, windowSeconds: 15 * 60, baseBlockSeconds: 15 * 60 },
        () => clock.now(),
      ),
      wrongCodePerAddress: createPgThrottle(
        pool,
        { maxFailures: 20, windowSeconds: 15 * 60, baseBlockSeconds: 15 * 60 },
        () => clock.now(),
      ),
    },
  };
}

/** OAuth's ports and reads, and the lifetimes of what it issues (OAUTH_*_SECONDS). */
export const oauthArea = defineArea((ctx) => ({
  services: { oauth: composeOAuth(ctx) },
  config: {
    oauth: {
      codeSeconds: ctx.config.OAUTH_CODE_SECONDS,
      accessTokenSeconds: ctx.config.OAUTH_ACCESS_TOKEN_SECONDS,
      refreshTokenSeconds: ctx.config.OAUTH_REFRESH_TOKEN_SECONDS,
      refreshAbsoluteSeconds: ctx.config.OAUTH_REFRESH_ABSOLUTE_SECONDS,
      deviceCodeSeconds: ctx.config.OAUTH_DEVICE_CODE_SECONDS,
    },
  },
}));
