// Every REST error is RFC 9457 problem+json with a stable `code`; the kind of a domain error maps to
// a status here, once.
import { isDomainError } from '@tributary/domain';
import type { ErrorRequestHandler, RequestHandler, Response } from 'express';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { STATUS_OF_KIND, type ErrorCode } from './error-codes.js';
import { routeMatcher, type RegisteredRoute } from './routes-of.js';

export interface Problem {
  status: number;
  code: ErrorCode;
  title: string;
  detail?: string;
  [extra: string]: unknown;
}

export function sendProblem(res: Response, p: Problem) {
  // The client went away (or a timeout closed the connection): there is no one to answer.
  if (res.destroyed) return;
  res
    .status(p.status)
    .type('application/problem+json')
    .json(problemMembers(res, p, { instance: res.req.originalUrl, requestId: res.req.id }));
}

/**
 * The problem's JSON members, and its headers set on `res`: Retry-After, and Connection: close after a
 * body refused unread (too large, too slow: it may still be arriving; close rather than read it all).
 */
function problemMembers(
  res: Pick<ServerResponse, 'setHeader'>,
  p: Problem,
  o: { instance: string; requestId: string },
): Record<string, unknown> {
  if (typeof p.retryAfter === 'number') res.setHeader('Retry-After', String(p.retryAfter));
  if (p.status === 413 || p.status === 408) res.setHeader('Connection', 'close');
  return problemJson(p, o);
}

/** The problem's JSON members alone: for an answer whose headers are gone already (an event stream's error event). */
export function problemJson(p: Problem, o: { instance: string; requestId: string }): Record<string, unknown> {
  const { status, code, title, detail, ...extra } = p;
  return {
    // Extra members first: details may carry what a peer or a caller sent, and must never replace the
    // problem's own members.
    ...extra,
    type: `urn:tributary:problem:${code}`,
    title,
    status,
    code,
    ...(detail && { detail }),
    instance: o.instance,
    requestId: o.requestId,
  };
}

/**
 * How a problem is answered: problem+json by default; the app passes one that shows a browser a page
 * instead (adapters/src/web/error-pages.ts), so the same handlers serve API clients and people.
 */
export type ProblemAnswer = (res: Response, p: Problem) => void;

export const notFoundRouteWith =
  (answer: ProblemAnswer = sendProblem): RequestHandler =>
  (req, res) =>
    answer(res, {
      status: 404,
      code: 'route.not_found',
      title: 'No such route',
      detail: `${req.method} ${req.path}`,
    });

export const notFoundRoute: RequestHandler = notFoundRouteWith();

/**
 * Answers from the app's registered routes (read once, on first use, after every router is mounted):
 * `options` answers OPTIONS on a known path that has no OPTIONS handler of its own (a CORS preflight)
 * with 204 and `Allow`; `notAllowed` answers a known path asked with a method it does not answer with
 * 405 and `Allow` (RFC 9110 §15.5.6).
 */
export function routeMethodAnswers(
  routes: () => RegisteredRoute[],
  answer: ProblemAnswer = sendProblem,
): {
  options: RequestHandler;
  notAllowed: RequestHandler;
} {
  let table: { match: RegExp; methods: string[] }[] | undefined;
  const allowedAt = (path: string) => {
    table ??= routes().map((r) => ({ match: routeMatcher(r.path), methods: r.methods }));
    const allowed = new Set<string>();
    for (const r of table) if (r.match.test(path)) for (const m of r.methods) allowed.add(m);
    return allowed;
  };
  const allowHeader = (allowed: Set<string>) => {
    const all = new Set(allowed);
    if (all.has('GET')) all.add('HEAD');
    all.add('OPTIONS');
    return [...all].sort().join(', ');
  };
  return {
    options(req, res, next) {
      if (req.method !== 'OPTIONS') return next();
      const allowed = allowedAt(req.path);
      if (allowed.size === 0 || allowed.has('OPTIONS')) return next();
      res.setHeader('Allow', allowHeader(allowed));
      res.status(204).end();
    },
    notAllowed(req, res, next) {
      const allowed = allowedAt(req.path);
      if (allowed.size === 0 || allowed.has(req.method)) return next();
      const allow = allowHeader(allowed);
      res.setHeader('Allow', allow);
      answer(res, {
        status: 405,
        code: 'route.method_not_allowed',
        title: 'This route does not answer that method',
        detail: `${req.method} ${req.path}; allowed: ${allow}`,
      });
    },
  };
}

export const problemHandlerWith =
  (answer: ProblemAnswer = sendProblem): ErrorRequestHandler =>
  (err, req, res, _next) => {
    if (res.headersSent) return;
    // The client is gone (it hung up, or a timeout closed the connection): no one to answer, nothing wrong here.
    if (res.destroyed) return void req.log?.debug({ err }, 'error after the connection closed');
    if (isDomainError(err) && err.code === 'auth.required' && req.remoteViewerRefused)
      return answer(res, {
        status: 403,
        code: 'auth.remote_viewer_not_allowed',
        title: 'A remote viewer may not use this route; sign in on this instance',
      });
    return answer(res, problemOf(err, req.log));
  };

export const problemHandler: ErrorRequestHandler = problemHandlerWith();

/**
 * The problem that answers an error thrown by a handler: a domain error by its kind and code, body-parser's
 * own errors by their `type`, an unreachable database as 503, anything else as 500 (logged). Shared by
 * the app's error handler and the handlers that answer before Express (the Stripe webhook's fast path).
 */
export function problemOf(err: unknown, log: Pick<Logger, 'warn' | 'error'> | undefined): Problem {
  if (isDomainError(err))
    return { ...(err.details ?? {}), status: STATUS_OF_KIND[err.kind], code: err.code, title: err.message };
  // body-parser's own errors carry a `type`.
  const type = (err as { type?: string } | null)?.type;
  if (type === 'entity.too.large')
    return { status: 413, code: 'request.too_large', title: 'The request body is too large' };
  if (type === 'entity.bad_bytes')
    return {
      status: 400,
      code: 'request.bad_bytes',
      title: 'The body holds NUL or bytes that are not UTF-8',
    };
  if (type === 'entity.parse.failed')
    return { status: 400, code: 'request.malformed_json', title: 'The request body is not valid JSON' };
  if (type === 'encoding.unsupported' || type === 'charset.unsupported')
    return { status: 415, code: 'request.unsupported_encoding', title: 'Unsupported body encoding' };
  if (databaseUnavailable(err)) {
    log?.warn({ err: { message: (err as Error).message, code: errorCode(err) } }, 'database unavailable');
    return {
      status: 503,
      code: 'service.unavailable',
      title: 'The database is unavailable; try again shortly',
      retryAfter: UNAVAILABLE_RETRY_AFTER_SECONDS,
    };
  }
  log?.error({ err }, 'unhandled error');
  return { status: 500, code: 'server.internal', title: 'Something went wrong on our side' };
}

/**
 * The same answer as sendProblem on a plain Node response (a handler in front of Express): the problem's
 * JSON, its Retry-After, and Connection: close after a body refused unread.
 */
export function writeProblem(
  req: IncomingMessage,
  res: ServerResponse,
  p: Problem,
  o: { instance: string; requestId: string },
) {
  if (res.destroyed || res.headersSent) return;
  const body = JSON.stringify(problemMembers(res, p, o));
  res.statusCode = p.status;
  res.setHeader('Content-Type', 'application/problem+json; charset=utf-8');
  res.setHeader('Content-Length', String(Buffer.byteLength(body)));
  res.end(req.method === 'HEAD' ? undefined : body);
}

/** How long a client is asked to wait (Retry-After) while the database cannot be reached. */
const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

// SQLSTATEs of a server that is going away or refusing connections (class 08 is connection exceptions),
// of a statement cut at its bound (57014: DATABASE_STATEMENT_TIMEOUT_MS, 55P03: a lock not granted in
// time) and of a full disk (53100), and the Node errors of a connection that cannot be made or was cut.
// Each ends its transaction unwritten.
const UNAVAILABLE_SQLSTATE = new Set(['57P01', '57P02', '57P03', '53300', '57014', '55P03', '53100']);
const UNAVAILABLE_ERRNO = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);
const UNAVAILABLE_MESSAGE =
  /^(Connection terminated|Client has encountered a connection error|timeout exceeded when trying to connect|Connection ended)/;

function errorCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * The database cannot be reached (down, restarting, refusing connections) or did not answer in time: a
 * retry later can succeed.
 */
export function databaseUnavailable(err: unknown): boolean {
  for (let e = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = errorCode(e);
    if (code && (UNAVAILABLE_SQLSTATE.has(code) || code.startsWith('08') || UNAVAILABLE_ERRNO.has(code)))
      return true;
    // A database reached over a Unix socket (DATABASE_URL's `host` a folder) with no server behind it.
    if (code === 'ENOENT' && (e as { syscall?: unknown }).syscall === 'connect') return true;
    if (e instanceof AggregateError && e.errors.some(databaseUnavailable)) return true;
    if (e instanceof Error && UNAVAILABLE_MESSAGE.test(e.message)) return true;
  }
  return false;
}
