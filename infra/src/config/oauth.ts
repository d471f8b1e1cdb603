// OAuth (docs/oauth.md): lifetimes, the device flow, client metadata documents, client registration.
import { rateLimit, type ConfigCheck } from './fields.js';
import { z } from 'zod';

export const oauthVariables = {
  // RFC 8628 device-flow polling interval; a run of too-fast polls adds 5 s (slow_down), polite polls take it off.
  OAUTH_DEVICE_INTERVAL_SECONDS: z.coerce.number().int().min(1).max(60).default(5),
  // OAuth lifetimes (seconds): authorization codes are short by design (OAuth 2.1 §4.1.2), access
  // tokens short-lived, refresh tokens rotate; a device code lives while a person finds the page.
  OAUTH_CODE_SECONDS: z.coerce.number().int().min(10).max(600).default(120),
  OAUTH_ACCESS_TOKEN_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .max(24 * 60 * 60)
    .default(60 * 60),
  OAUTH_REFRESH_TOKEN_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .max(365 * 24 * 60 * 60)
    .default(30 * 24 * 60 * 60),
  // A refresh-token family's whole life from its grant, however often it rotates; then the person
  // authorizes again.
  OAUTH_REFRESH_ABSOLUTE_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .max(730 * 24 * 60 * 60)
    .default(90 * 24 * 60 * 60),
  OAUTH_DEVICE_CODE_SECONDS: z.coerce.number().int().min(60).max(3600).default(600),
  // Client ID Metadata Documents: the whole fetch must finish within this, and be at most this big.
  OAUTH_CLIENT_METADATA_TIMEOUT_MS: z.coerce.number().int().min(100).max(30_000).default(5000),
  OAUTH_CLIENT_METADATA_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(512)
    .max(1024 * 1024)
    .default(5 * 1024),
  // Dynamic client registration, per client address (docs/operations.md#rate-limits).
  RATE_LIMIT_REGISTRATION: rateLimit('RATE_LIMIT_REGISTRATION', '20/h'),
};

export const oauthChecks: ConfigCheck<{
  OAUTH_ACCESS_TOKEN_SECONDS: number;
  OAUTH_REFRESH_TOKEN_SECONDS: number;
  OAUTH_REFRESH_ABSOLUTE_SECONDS: number;
}>[] = [
  {
    holds: (c) => c.OAUTH_REFRESH_TOKEN_SECONDS >= c.OAUTH_ACCESS_TOKEN_SECONDS,
    path: 'OAUTH_REFRESH_TOKEN_SECONDS',
    message: 'must be at least OAUTH_ACCESS_TOKEN_SECONDS (a refresh token outlives its access tokens)',
  },
  {
    holds: (c) => c.OAUTH_REFRESH_ABSOLUTE_SECONDS >= c.OAUTH_REFRESH_TOKEN_SECONDS,
    path: 'OAUTH_REFRESH_ABSOLUTE_SECONDS',
    message: 'must be at least OAUTH_REFRESH_TOKEN_SECONDS (a family outlives each of its refresh tokens)',
  },
];
