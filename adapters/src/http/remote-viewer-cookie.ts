// The federated remote-viewer cookie `svc_remote_viewer` (docs/assistant.md#remote-viewers): HttpOnly,
// SameSite=Lax, Secure when BASE_URL is https. It holds a random secret; the server keeps only its digest.
// Only the routes that name it accept it (the assistant settings); everywhere else it is no credential.
import { remoteViewerPrincipal, type Principal, type Services } from '@tributary/services';
import { parse as parseCookies } from 'cookie';
import type { Request, Response } from 'express';
import type { SessionCookieOptions } from './session.js';

export const REMOTE_VIEWER_COOKIE = 'svc_remote_viewer';

export function setRemoteViewerCookie(
  res: Response,
  o: SessionCookieOptions,
  token: string,
  expiresAt: string,
): void {
  res.cookie(REMOTE_VIEWER_COOKIE, token, {
    httpOnly: true,
    sameSite: 'lax',
    secure: o.secure,
    path: '/',
    expires: new Date(expiresAt),
  });
}

export function remoteViewerToken(req: Request): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  return parseCookies(header)[REMOTE_VIEWER_COOKIE] || undefined;
}

/** The remote viewer a request's cookie stands for, or anonymous. */
export async function remoteViewerOf(services: Services, req: Request): Promise<Principal> {
  return (await remoteViewerPrincipal(services, remoteViewerToken(req))) ?? { kind: 'anonymous' };
}
