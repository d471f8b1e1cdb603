// Single sign-on (docs/sso.md).
import { rateLimit } from './fields.js';
import { z } from 'zod';

export const ssoVariables = {
  // How long an assertion this instance issues lives, how long the
  // remote-viewer credential minted from one lives, whether a sovereign delegates passwords and
  // sign-ups to the global peer, and how long it waits for the global instance's answer.
  SSO_ASSERTION_SECONDS: z.coerce.number().int().min(10).max(300).default(120),
  SSO_REMOTE_VIEWER_SECONDS: z.coerce.number().int().min(60).max(43_200).default(3600),
  SSO_DELEGATION: z.enum(['on', 'off']).default('off'),
  SSO_GLOBAL_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5000),
  // Single sign-on's public and peer routes (sso/issue, sso/land, remote-auth, remote-password/verify,
  // signup, site-accounts), one budget per route family and client address.
  RATE_LIMIT_SSO: rateLimit('RATE_LIMIT_SSO', '30/min'),
};
