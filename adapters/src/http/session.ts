// Session cookies: HttpOnly, SameSite=Lax, Secure (and __Host- prefixed) when BASE_URL is https.
// The cookie holds a random secret; the server keeps only its digest in the session record.
import type { Principal, Services } from '@tributary/services';
import { parse as parseCookies } from 'cookie';
import type { Request, Response } from 'express';

export interface SessionCookieOptions {
  secure: boolean;
}

const sessionCookieName = (o: SessionCookieOptions) =>
  o.secure ? '__Host-tributary_session' : 'tributary_session';

export function setSessionCookie(res: Response, o: SessionCookieOptions, token: string, expiresAt: string) {
  res.cookie(sessionCookieName(o), token, {
    httpOnly: true,
    sameSite: 'lax',
    secure: o.secure,
    path: '/',
    expires: new Date(expiresAt),
  });
}

export function clearSessionCookie(res: Response, o: SessionCookieOptions) {
  res.clearCookie(sessionCookieName(o), { httpOnly: true, sameSite: 'lax', secure: o.secure, path: '/' });
}

export function sessionToken(req: Request, o: SessionCookieOptions): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  return parseCookies(header)[sessionCookieName(o)] || undefined;
}

/** The session principal, or anonymous when there is no live session. */
export async function sessionPrincipal(services: Services, token: string | undefined): Promise<Principal> {
  if (!token) return { kind: 'anonymous' };
  const session = await services.accounts.read.sessionByTokenHash(services.ids.sha256(token));
  if (!session || session.endedAt || new Date(session.expiresAt) <= services.clock.now())
    return { kind: 'anonymous' };
  const account = await services.accounts.read.accountById(session.accountId);
  if (!account) return { kind: 'anonymous' };
  return {
    kind: 'session',
    sessionId: session.sessionId,
    accountId: account.accountId,
    agentId: account.agentId,
  };
}
