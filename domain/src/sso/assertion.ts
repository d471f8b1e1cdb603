// Single sign-on assertions (docs/sso.md#assertions): claims about one person, signed by the instance
// that checked their password (the global instance, or the person's home), bound to exactly one visited
// instance (`aud`, its origin), short-lived, and carrying a 128-bit nonce so a visited instance accepts
// it once. Pure: the shape, the timing and the `next` rule; signatures and keys are the services'.
import { z } from 'zod';
import { httpUrlSchema } from '../shared/http-url.js';
import { uuidSchema } from '../shared/ids.js';

export const SSO_ASSERTION_TYPE = 'tributary:SignOnAssertion';
/** An assertion lives this long by default (SSO_ASSERTION_SECONDS) and never longer than the max. */
export const SSO_ASSERTION_DEFAULT_SECONDS = 120;
export const SSO_ASSERTION_MAX_SECONDS = 300;
/** Clock difference allowed either way between issuer and verifier. */
export const SSO_CLOCK_SKEW_SECONDS = 30;
/** The encoded assertion (base64url of its JSON) is at most this long; longer is refused unread. */
export const SSO_ASSERTION_MAX_CHARS = 4096;
/** 128 bits of nonce: 16 bytes, 22 base64url characters. */
export const SSO_NONCE_CHARS = 22;

const base64url = /^[A-Za-z0-9_-]+$/;

/** What the signature covers; every member required, nothing else allowed. */
export const ssoClaimsSchema = z.strictObject({
  v: z.literal(1),
  type: z.literal(SSO_ASSERTION_TYPE),
  /** The person's agent id at the issuer. */
  sub: uuidSchema,
  handle: z.string().max(64).nullable(),
  name: z.string().min(1).max(100),
  /** The person's home instance: its origin. */
  home: httpUrlSchema(200),
  iss: z.strictObject({ instanceId: uuidSchema, baseUrl: httpUrlSchema(200) }),
  /** The one instance this assertion is for: its origin. */
  aud: httpUrlSchema(200),
  /** The person's credential version at the issuer: raised by every authority revocation. */
  cv: z.number().int().min(0).max(1_000_000),
  /** Issued at and expires at, in whole seconds since the epoch. */
  iat: z.number().int().min(0),
  exp: z.number().int().min(0),
  nonce: z.string().length(SSO_NONCE_CHARS).regex(base64url),
});
export type SsoClaims = z.infer<typeof ssoClaimsSchema>;

export const ssoSignatureSchema = z.strictObject({
  algorithm: z.literal('Ed25519'),
  canonicalization: z.literal('JCS-RFC8785'),
  keyId: z.string().min(1).max(200),
  value: z.string().regex(base64url).max(200),
});

export const ssoAssertionSchema = z.strictObject({
  claims: ssoClaimsSchema,
  signature: ssoSignatureSchema,
});
export type SsoAssertion = z.infer<typeof ssoAssertionSchema>;

export type SsoTiming = 'ok' | 'expired' | 'not_yet_valid' | 'too_long';

/** Whether an assertion is usable at `nowSeconds`, allowing `skewSeconds` of clock difference either way. */
export function ssoTiming(
  c: Pick<SsoClaims, 'iat' | 'exp'>,
  nowSeconds: number,
  skewSeconds: number,
): SsoTiming {
  if (c.exp <= c.iat || c.exp - c.iat > SSO_ASSERTION_MAX_SECONDS) return 'too_long';
  if (c.iat - nowSeconds > skewSeconds) return 'not_yet_valid';
  if (nowSeconds - skewSeconds >= c.exp) return 'expired';
  return 'ok';
}

/**
 * Where a landing may send the browser: a path on this same origin. Anything that could leave it — a
 * scheme, `//host`, a backslash (browsers read `/\host` as `//host`), control characters — becomes `/`.
 */
export function safeNextPath(next: unknown): string {
  if (typeof next !== 'string' || next.length === 0 || next.length > 2000) return '/';
  if (!next.startsWith('/') || next.startsWith('//')) return '/';
  // eslint-disable-next-line no-control-regex
  if (/[\\\u0000-\u001f\u007f]/.test(next)) return '/';
  if (/^\/[^/?#]*:/.test(next) && /^[a-z][a-z0-9+.-]*:/i.test(next.slice(1))) return '/';
  return next;
}
