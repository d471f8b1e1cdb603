import type { Principal, Services } from '@tributary/services';
import type { Request } from 'express';
import type { PublicRateLimits } from './rate-limit.js';
import { remoteViewerOf, remoteViewerToken } from './remote-viewer-cookie.js';
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
    /**
     * A live `svc_remote_viewer` credential came with a request that has no session, on a route that
     * does not accept it: a refusal for want of a credential is answered
     * `403 auth.remote_viewer_not_allowed` instead of `401 auth.required` (problem.ts).
     */
    remoteViewerRefused?: boolean;
  }
}

/** Resolves (once per request) the session principal of a browser request. */
export async function principalOf(ctx: HttpContext, req: Request): Promise<Principal> {
  if (req.principal) return req.principal;
  req.principal = await sessionPrincipal(ctx.services, sessionToken(req, ctx.cookie));
  // The visitor cookie is no credential here, but a visitor should learn why they are refused.
  if (req.principal.kind === 'anonymous' && remoteViewerToken(req))
    req.remoteViewerRefused = (await remoteViewerOf(ctx.services, req)).kind === 'remote_viewer';
  return req.principal;
}

/**
 * For the routes that accept the remote-viewer cookie too: the session when there is one (a session is
 * never masked by a stale visitor cookie), else the remote viewer, else anonymous. The pipeline lets a
 * remote viewer run only operations marked `remoteViewer: 'read'`.
 */
export async function principalOrRemoteViewerOf(ctx: HttpContext, req: Request): Promise<Principal> {
  const session = await principalOf(ctx, req);
  req.remoteViewerRefused = false; // accepted here
  return session.kind === 'anonymous' ? remoteViewerOf(ctx.services, req) : session;
}
