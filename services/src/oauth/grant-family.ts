// What the OAuth operations share: lifetimes, PKCE, redirect matching, and minting an access token that
// is the same JWT + token record as a direct issue (so revocation and narrowing work identically).
import {
  decideIssueToken,
  decideRevokeFamily,
  decideRevokeToken,
  decideRotateRefresh,
  fold,
  mcpTokenStream,
  oauthError,
  oauthFamilyStream,
  type McpTokenState,
  type NewEvent,
  type OAuthFamilyState,
} from '@tributary/domain';
import type { KnownStream } from '../pipeline/operation.js';
import type { OAuthOperationContext } from './oauth-operation.js';
import { isLoopbackHost } from './register-client.js';

/** Default lifetimes; the instance's own come from configuration (`services.config.oauth`). */
export const OAUTH_CODE_SECONDS = 120;
export const OAUTH_ACCESS_TOKEN_SECONDS = 60 * 60;
export const OAUTH_REFRESH_TOKEN_SECONDS = 30 * 24 * 60 * 60;
export const OAUTH_REFRESH_ABSOLUTE_SECONDS = 90 * 24 * 60 * 60;

const PKCE_VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;
export const PKCE_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

const base64url = (bytes: ArrayBuffer) => Buffer.from(bytes).toString('base64url');

/** RFC 7636 S256: BASE64URL(SHA256(verifier)) must equal the challenge. */
export async function pkceMatches(verifier: string, challenge: string): Promise<boolean> {
  if (!PKCE_VERIFIER.test(verifier)) return false;
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return base64url(digest) === challenge;
}

/** Exact match, except that a loopback redirect may use any port (RFC 8252 §7.3). */
export function redirectMatches(registered: readonly string[], given: string): boolean {
  if (registered.includes(given)) return true;
  let g: URL;
  try {
    g = new URL(given);
  } catch {
    return false;
  }
  if (g.protocol !== 'http:' || !isLoopbackHost(g.hostname)) return false;
  return registered.some((r) => {
    const u = new URL(r);
    return (
      u.protocol === 'http:' &&
      u.hostname === g.hostname &&
      u.pathname === g.pathname &&
      u.search === g.search &&
      !g.hash
    );
  });
}

interface GrantFacts {
  familyId: string;
  clientId: string;
  clientName: string;
  accountId: string;
  agentId: string;
  personaId?: string | undefined;
  scopes: string[];
  resource: string;
  /** When the family began, its first tokens (RFC 3339); it ends `refreshAbsoluteSeconds` later. */
  grantedAt: string;
}

/** When a family granted at `grantedAt` ends, however often it rotates. */
export const familyEndsAt = (grantedAt: string, lifetimes: { refreshAbsoluteSeconds: number }) =>
  new Date(new Date(grantedAt).getTime() + lifetimes.refreshAbsoluteSeconds * 1000);

/** Signs a fresh access JWT and returns it with the events that record it and rotate the refresh token. */
export async function mintTokens(ctx: OAuthOperationContext, g: GrantFacts) {
  const { services } = ctx;
  const tokens = services.tokens.accessTokens;
  if (!tokens) throw oauthError('temporarily_unavailable', 'this process does not issue tokens');
  const lifetimes = services.config.oauth;
  const jti = services.ids.entityId();
  const iat = Math.floor(ctx.now.getTime() / 1000);
  const exp = iat + lifetimes.accessTokenSeconds;
  const refreshToken = services.ids.secret(32);
  const accessToken = await tokens.sign({ sub: g.accountId, jti, iat, exp });
  const isInstanceController = ctx.instance.controllers.includes(g.accountId);
  const decide = (states: Map<string, unknown>): NewEvent[] => [
    ...decideIssueToken(
      {
        jti,
        accountId: g.accountId,
        agentId: g.agentId,
        personaId: g.personaId,
        scopes: g.scopes,
        audience: g.resource,
        label: `OAuth: ${g.clientName}`,
        client: g.clientId,
        expiresAt: new Date(exp * 1000).toISOString(),
      },
      states.get(mcpTokenStream(jti)) as McpTokenState,
      { isInstanceController },
    ),
    ...decideRotateRefresh(
      {
        familyId: g.familyId,
        refreshDigest: services.ids.sha256(refreshToken),
        accessJti: jti,
        clientId: g.clientId,
        accountId: g.accountId,
        agentId: g.agentId,
        ...(g.personaId && { personaId: g.personaId }),
        scopes: g.scopes,
        resource: g.resource,
        // Idle lifetime from now, but never past the family's absolute end.
        expiresAt: new Date(
          Math.min(
            (iat + lifetimes.refreshTokenSeconds) * 1000,
            familyEndsAt(g.grantedAt, lifetimes).getTime(),
          ),
        ).toISOString(),
        grantedAt: g.grantedAt,
      },
      states.get(oauthFamilyStream(g.familyId)) as OAuthFamilyState,
    ),
  ];
  const response = {
    access_token: accessToken,
    token_type: 'Bearer' as const,
    expires_in: lifetimes.accessTokenSeconds,
    refresh_token: refreshToken,
    scope: [...new Set(g.scopes)].sort().join(' '),
  };
  // The token's stream is new (a fresh jti): nothing to read; the append checks it does not exist.
  const tokenStream = mcpTokenStream(jti);
  const known = new Map<string, KnownStream>([[tokenStream, { state: fold(tokenStream, []), version: 0 }]]);
  return { streams: [tokenStream, oauthFamilyStream(g.familyId)], decide, response, known };
}

export async function loadFamily(ctx: OAuthOperationContext, familyId: string): Promise<OAuthFamilyState> {
  return loadStreamState<OAuthFamilyState>(ctx, oauthFamilyStream(familyId));
}

/** An OAuth stream's state, folded from the whole stream (codes, device requests and families are short). */
export async function loadStreamState<S>(ctx: OAuthOperationContext, stream: string): Promise<S> {
  const loaded = await ctx.services.store.readStreams([stream]);
  return fold(stream, loaded.get(stream) ?? []) as S;
}

/** The registered client, or invalid_client: every OAuth endpoint names one. */
export async function requireClient(ctx: OAuthOperationContext, clientId: string) {
  const client = await ctx.services.oauth.clients.find(clientId);
  if (!client) throw oauthError('invalid_client', 'unknown client');
  return client;
}

/** Theft response: the family is revoked and every access token it minted with it. */
export async function revokeFamily(
  ctx: OAuthOperationContext,
  familyId: string,
  reason: 'refresh_reuse' | 'code_reuse' | 'owner',
  // Rare path: the whole stream is folded here, for every access token the family minted.
  family: OAuthFamilyState | undefined = undefined,
) {
  family ??= await loadFamily(ctx, familyId);
  const accountId = family.current?.accountId;
  if (!accountId) return;
  const jtiStreams = family.accessJtis.map(mcpTokenStream);
  await ctx.commit([oauthFamilyStream(familyId), ...jtiStreams], (states) => [
    ...decideRevokeFamily(familyId, reason, states.get(oauthFamilyStream(familyId)) as OAuthFamilyState),
    ...family.accessJtis.flatMap((jti) =>
      decideRevokeToken(
        { jti, accountId, reason: 'owner' },
        states.get(mcpTokenStream(jti)) as McpTokenState,
      ),
    ),
  ]);
}
