import type { Principal, Services } from '@tributary/services';
import type { Request } from 'express';
import type { PublicRateLimits } from './rate-limit.js';
import { remoteViewerOf } from './remote-viewer-cookie.js';
import { sessionPrincipal, sessionToken, type SessionCookieOptions } from './session.js';

export interface HttpContext {
  services: Services;
  cookie: SessionCookieOptions;
  baseUrl: string;
  /** Per-address limits of the public surfaces (rate-limit.ts). */
  limits: PublicRateLimits;
}

declare module 'express-serve-static-core' {
  interface Request {
    principal?: Principal;
  }
}

/** Resolves (once per request) the session principal of a browser request. */
export async function principalOf(ctx: HttpContext, req: Request): Promise<Principal> {
  req.principal ??= await sessionPrincipal(ctx.services, sessionToken(req, ctx.cookie));
  return req.principal;
}

/**
 * For the routes that accept the remote-viewer cookie too: the session when there is one (a session is
 * never masked by a stale visitor cookie), else the remote viewer, else anonymous. The pipeline lets a
 * remote viewer run only operations marked `remoteViewer: 'read'`.
 */
export async function principalOrRemoteViewerOf(ctx: HttpContext, req: Request): Promise<Principal> {
  const session = await principalOf(ctx, req);
  return session.kind === 'anonymous' ? remoteViewerOf(ctx.services, req) : session;
}
