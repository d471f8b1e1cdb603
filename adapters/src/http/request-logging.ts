// Request ids and one access-log line per request.
//
// pino-http did this before, and on every request it also serialized the whole request (every header,
// through redaction) into a child logger's bindings as soon as the request arrived. That happened at any
// log level, `silent` included. Measured here on the feed route (a 290 kB page), it cost ~0.2 ms per
// request, the largest fixed cost after Node's own HTTP. This middleware binds only the id to the handlers'
// child logger (`req.log`, ~1 µs) and builds the access line when the request ends, and only when its
// level is enabled.
import type { RequestHandler } from 'express';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';

declare module 'http' {
  interface IncomingMessage {
    /** The request id: the caller's `X-Request-Id` when well formed, else a new UUID. */
    id: string;
    /** A logger bound to this request's id. */
    log: Logger;
  }
}

/**
 * Query parameters whose values are secrets and never reach the log: the single-use tokens of the
 * account mails' links (`/account/verify-email?token=…`, docs/mail.md#accounts).
 */
const SECRET_QUERY = /([?&]token=)[^&#]*/gi;
/** The request's URL as the access log shows it: secret query values replaced. */
export const loggedUrl = (url: string) => url.replace(SECRET_QUERY, '$1[redacted]');

/** A caller's request id is kept when it is this safe to log and echo. */
const REQUEST_ID = /^[A-Za-z0-9._-]{1,100}$/;

export interface RequestLoggingOptions {
  logger: Logger;
  /** Requests that get no access line (health probes). */
  quiet?: (req: IncomingMessage) => boolean;
  /** Requests whose access line is at debug when they succeed (static files: a page loads several). */
  routine?: (req: IncomingMessage) => boolean;
}

export function requestLogging(o: RequestLoggingOptions): RequestHandler {
  return (req, res, next) => {
    logRequest(o, req, res);
    next();
  };
}

/**
 * The same on a plain Node request (a handler in front of Express): the request id (header, `req.id`,
 * `req.log`) and the access line once the answer ended.
 */
export function logRequest(
  { logger, quiet, routine }: RequestLoggingOptions,
  req: IncomingMessage,
  res: ServerResponse,
): void {
  const given = req.headers['x-request-id'];
  const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
  req.id = id;
  res.setHeader('X-Request-Id', id);
  req.log = logger.child({ reqId: id });
  if (quiet?.(req)) return;

  const started = performance.now();
  // Read now: once the socket is destroyed (a body reader refusing an oversized upload, a timeout), the
  // request no longer holds it, and the line is written after that.
  const remoteAddress = req.socket?.remoteAddress;
  const done = () => {
    res.removeListener('finish', done);
    res.removeListener('close', done);
    const status = res.statusCode;
    // A response cut short (the client went away, or a stream was destroyed) never finished.
    const finished = res.writableFinished;
    const level =
      status >= 500 ? 'error' : !finished ? 'warn' : status < 400 && routine?.(req) ? 'debug' : 'info';
    if (!logger.isLevelEnabled(level)) return;
    const url = (req as { originalUrl?: string }).originalUrl ?? req.url ?? '';
    logger[level](
      {
        reqId: id,
        req: { method: req.method, url: loggedUrl(url), remoteAddress },
        res: { statusCode: status },
        responseTime: Math.round((performance.now() - started) * 10) / 10,
      },
      finished ? 'request completed' : 'request aborted',
    );
  };
  res.on('finish', done);
  res.on('close', done);
}
