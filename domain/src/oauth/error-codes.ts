// The OAuth area's error codes. `oauth.<error>` carries an RFC 6749 / 7591 / 8628 / 8707 error code,
// which the OAuth endpoints answer as `{ "error": "<error>" }` (see oauth.ts); the RFC codes themselves
// are the protocols' list, not ours. docs/api.md's table is generated from these descriptions.
import type { ErrorCodeList } from '../shared/error-kind.js';

export const OAUTH_ERROR_CODES = {
  'oauth.invalid_request': {
    kinds: ['invalid'],
    description:
      'a required parameter is missing or malformed (`client_id` and `token` at revocation included)',
  },
  'oauth.invalid_client': {
    kinds: ['unauthenticated'],
    description:
      'unknown `client_id`, or a secret (`Authorization` header, `client_secret`): every client is public',
  },
  'oauth.invalid_grant': {
    kinds: ['invalid'],
    description:
      'bad, used or expired code; a code locked after 3 wrong PKCE verifiers; a refresh token past its idle or absolute lifetime; at revocation, a live token issued to another client (not revoked)',
  },
  'oauth.invalid_scope': {
    kinds: ['invalid'],
    description:
      "a scope outside `scopes_supported` or the client's registered `scope`, or wider than the grant",
  },
  'oauth.invalid_target': {
    kinds: ['invalid'],
    description: 'a `resource` other than the MCP endpoint, or not the one consented to',
  },
  'oauth.invalid_redirect_uri': { kinds: ['invalid'], description: 'a redirect URI registration refuses' },
  'oauth.invalid_client_metadata': {
    kinds: ['invalid'],
    description: 'registration metadata we refuse, a `scope` outside `scopes_supported` included',
  },
  'oauth.unsupported_grant_type': {
    kinds: ['invalid'],
    description: 'a grant type the token endpoint does not serve',
  },
  'oauth.unauthorized_client': {
    kinds: ['invalid'],
    description: 'the client did not register for the device grant',
  },
  'oauth.authorization_pending': {
    kinds: ['invalid'],
    description: 'device grant: the user has not decided yet; poll again',
  },
  'oauth.slow_down': { kinds: ['invalid'], description: 'device grant: polling faster than the interval' },
  'oauth.access_denied': { kinds: ['invalid'], description: 'device grant: the user denied the request' },
  'oauth.expired_token': { kinds: ['invalid'], description: 'device grant: the device code has expired' },
  // The OAuth edge answers this one 503 (adapters/src/oauth/oauth-errors.ts).
  'oauth.temporarily_unavailable': {
    kinds: ['invalid'],
    description: 'this process does not issue tokens',
    status: '503',
  },
  'oauth.grant_not_found': { kinds: ['not_found'], description: 'no such grant among yours' },
} as const satisfies ErrorCodeList;

/** The RFC error code inside an `oauth.<error>` code. */
export type OAuthRfcErrorCode = {
  [C in keyof typeof OAUTH_ERROR_CODES]: C extends `oauth.${infer E}` ? E : never;
}[keyof typeof OAUTH_ERROR_CODES];
