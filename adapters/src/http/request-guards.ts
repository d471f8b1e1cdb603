// Guards of browser writes, shared by every surface that takes them: the REST API, the token routes,
// the consent and device pages.
import type { RequestHandler } from 'express';
import { sendProblem } from './problem.js';

const WRITE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Cookie-authenticated writes must come from our own origin (CSRF defence beside SameSite=Lax). */
export function sameOrigin(baseUrl: string): RequestHandler {
  const origin = new URL(baseUrl).origin;
  return (req, res, next) => {
    const given = req.headers.origin;
    if (WRITE.has(req.method) && given && given !== origin)
      return sendProblem(res, {
        status: 403,
        code: 'request.cross_origin',
        title: 'Cross-origin write refused',
      });
    next();
  };
}

/** JSON routes take JSON bodies only; a form post cannot smuggle a write in. */
export const requireJson: RequestHandler = (req, res, next) => {
  const hasBody =
    Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
  if (WRITE.has(req.method) && hasBody && !req.is(['application/json', 'application/*+json']))
    return sendProblem(res, {
      status: 415,
      code: 'request.unsupported_media_type',
      title: 'Send application/json',
    });
  next();
};
