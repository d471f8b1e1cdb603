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

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Whether a request target, once percent-decoded, is not UTF-8 or holds NUL: such a path parameter or
 * query value could only reach PostgreSQL as text it cannot store.
 */
export function hasBadBytes(target: string): boolean {
  if (!target.includes('%') && !/[^\x21-\x7e]/.test(target)) return false;
  const bytes: number[] = [];
  for (let i = 0; i < target.length; i++) {
    const c = target.charCodeAt(i);
    const hex = c === 0x25 ? target.slice(i + 1, i + 3) : '';
    if (/^[0-9a-fA-F]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else bytes.push(c & 0xff);
  }
  if (bytes.includes(0)) return true;
  try {
    UTF8.decode(Uint8Array.from(bytes));
    return false;
  } catch {
    return true;
  }
}

/** Refuses a request whose path or query is bad bytes (`hasBadBytes`), before any route reads it. */
export const refuseBadBytes: RequestHandler = (req, res, next) => {
  if (!hasBadBytes(req.url)) return next();
  sendProblem(res, {
    status: 400,
    code: 'request.bad_bytes',
    title: 'The path or query holds NUL or bytes that are not UTF-8',
  });
};
