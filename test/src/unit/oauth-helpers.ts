// What the OAuth unit tests share: registering a client, a PKCE pair, and a grant carried through
// consent and the code exchange, each through the catalogue operations the OAuth endpoints run.
import { createHash, randomBytes } from 'node:crypto';
import type { UnitAccount, UnitInstance } from './given-when-then.js';
import { UNIT_BASE_URL } from './memory-services.js';

export const anonymous = { kind: 'anonymous' } as const;
export const MCP_RESOURCE = `${UNIT_BASE_URL}/api/mcp`;
export const REDIRECT = 'https://notes.example/callback';
export const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  scope: string;
}

/** Registers a client (RFC 7591 metadata) and answers its id. */
export async function registerClient(t: UnitInstance, metadata: Record<string, unknown> = {}) {
  return (
    await t.when<{ client_id: string }>(
      'svc.oauth.register',
      { client_name: 'Notes', redirect_uris: [REDIRECT], ...metadata },
      anonymous,
    )
  ).result.client_id;
}

/** An RFC 7636 S256 pair. */
export function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** Three scopes this instance supports, in sorted order. */
export function someScopes(t: UnitInstance): [string, string, string] {
  const supported = [...t.services.config.scopesSupported].filter((s) => s !== 'svc.admin').sort();
  return [supported[0]!, supported[1]!, supported[2]!];
}

/** `who` consents to `clientId` for `scopes`; answers the code and its PKCE verifier. */
export async function consent(
  t: UnitInstance,
  who: UnitAccount,
  clientId: string,
  scopes: readonly string[],
  extra: Record<string, unknown> = {},
) {
  const { verifier, challenge } = pkce();
  const { code } = (
    await t.when<{ code: string }>(
      'svc.oauth.authorize',
      {
        clientId,
        redirectUri: REDIRECT,
        codeChallenge: challenge,
        codeChallengeMethod: 'S256',
        scopes,
        ...extra,
      },
      who.principal,
    )
  ).result;
  return { code, verifier };
}

/** A grant carried through consent and the code exchange: the token response and the family's id. */
export async function granted(
  t: UnitInstance,
  who: UnitAccount,
  clientId: string,
  scopes: readonly string[],
  extra: Record<string, unknown> = {},
) {
  const { code, verifier } = await consent(t, who, clientId, scopes, extra);
  const exchanged = await t.when<TokenResponse>(
    'svc.oauth.token.authorization_code',
    { clientId, code, redirectUri: REDIRECT, codeVerifier: verifier },
    anonymous,
  );
  const refresh = exchanged.events.find((e) => e.type === 'oauth_refresh.issued');
  if (!refresh) throw new Error('the exchange issued no refresh token');
  return { tokens: exchanged.result, familyId: String(refresh.data.familyId) };
}
