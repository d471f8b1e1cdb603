// Principals on /api/mcp (docs/architecture.md#principals): a scoped token, then the static token, then the session.
// A bearer comes from the Authorization header only. A bearer that fails never masks a valid session,
// and is never silently replaced by anything but that session: without one, its own error is answered.
import { isDomainError, unauthenticated, type CodeOfKind, type DomainError } from '@tributary/domain';
import { tokenStatus, type Principal, type Services, type TokenStatus } from '@tributary/services';
import type { Request } from 'express';
import { createHash, timingSafeEqual } from 'node:crypto';
import { sessionPrincipal, sessionToken, type SessionCookieOptions } from '../http/index.js';
import { looksLikeJwt } from './jwt-access-tokens.js';

export interface StaticToken {
  /** SHA-256 of AIAGENT_MCP_TOKEN: compared in constant time, never the value itself. */
  digest: Buffer;
  scopes: readonly string[];
}

export const staticTokenFrom = (
  value: string | undefined,
  scopes: readonly string[],
): StaticToken | undefined => (value ? { digest: sha256(value), scopes } : undefined);

interface McpAuthContext {
  services: Services;
  cookie: SessionCookieOptions;
  staticToken?: StaticToken | undefined;
}

type McpAuth =
  | { ok: true; principal: Exclude<Principal, { kind: 'anonymous' }> }
  | { ok: false; error: DomainError; bearerPresented: boolean };

const sha256 = (value: string) => createHash('sha256').update(value, 'utf8').digest();
const BEARER = /^Bearer +([\x21-\x7e]+) *$/i;

export async function resolveMcpPrincipal(ctx: McpAuthContext, req: Request): Promise<McpAuth> {
  let bearerError: DomainError | undefined;
  const header = req.headers.authorization;
  if (header !== undefined) {
    const token = BEARER.exec(header)?.[1];
    if (!token) bearerError = unauthenticated('auth.invalid_token', 'send Authorization: Bearer <token>');
    else {
      const found = await bearerPrincipal(ctx, token);
      if (!isDomainError(found)) return { ok: true, principal: found };
      bearerError = found;
    }
  }
  const session = await sessionPrincipal(ctx.services, sessionToken(req, ctx.cookie));
  if (session.kind === 'session') return { ok: true, principal: session };
  return {
    ok: false,
    error: bearerError ?? unauthenticated('auth.required', 'present a bearer token or sign in'),
    bearerPresented: !!bearerError,
  };
}

async function bearerPrincipal(
  ctx: McpAuthContext,
  token: string,
): Promise<Exclude<Principal, { kind: 'anonymous' }> | DomainError> {
  let scopedError: DomainError | undefined;
  if (looksLikeJwt(token)) {
    try {
      return await scopedPrincipal(ctx.services, token);
    } catch (e) {
      if (!isDomainError(e)) throw e;
      scopedError = e;
    }
  }
  if (ctx.staticToken && timingSafeEqual(sha256(token), ctx.staticToken.digest)) {
    const instance = await ctx.services.instance.read.get();
    if (!instance) return unauthenticated('instance.not_initialized', 'the instance is starting');
    return { kind: 'static', agentId: instance.primaryAgentId, scopes: ctx.staticToken.scopes };
  }
  return scopedError ?? unauthenticated('auth.invalid_token', 'the token is not valid');
}

/** Why a token that is not active is refused: its status (the same one its owner's list shows) as a code. */
const REFUSALS: Record<
  Exclude<TokenStatus, 'active'>,
  [code: CodeOfKind<'unauthenticated'>, message: string]
> = {
  revoked: ['auth.token_revoked', 'the token has been revoked'],
  persona_deleted: ['auth.persona_deleted', 'the persona this token acts for was deleted'],
  expired: ['auth.token_expired', 'the token has expired'],
};

/** The JWT proves issuance; the record decides: revoked, expired, audience, scopes and persona. */
async function scopedPrincipal(
  services: Services,
  token: string,
): Promise<Exclude<Principal, { kind: 'anonymous' }>> {
  const tokens = services.tokens.accessTokens;
  if (!tokens) throw unauthenticated('auth.invalid_token', 'this instance does not accept scoped tokens');
  const now = services.clock.now();
  const claims = await tokens.verify(token, now);
  const record = await services.tokens.read.tokenByJti(claims.jti);
  if (!record || record.accountId !== claims.sub)
    throw unauthenticated('auth.invalid_token', 'no such token');
  if (record.audience !== tokens.audience)
    throw unauthenticated('auth.wrong_audience', 'the token was not issued for this endpoint');
  const status = tokenStatus(record, now);
  if (status !== 'active') throw unauthenticated(...REFUSALS[status]);
  return {
    kind: 'token',
    jti: record.jti,
    accountId: record.accountId,
    agentId: record.agentId,
    boundAgentId: record.personaId ?? undefined,
    scopes: record.scopes,
  };
}
