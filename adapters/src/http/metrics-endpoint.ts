// GET /metrics: the Prometheus exposition (docs/operations.md#metrics), and the route labels the request
// metrics use. The metrics themselves are infra's; this is only who may read them and how they are named.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import proxyAddr from 'proxy-addr';
import type { ErrorCode } from './error-codes.js';

interface MetricsEndpointOptions {
  /** METRICS_TOKEN: when set, the only way in (any address); unset, loopback clients only. */
  token?: string | undefined;
  /** Express's compiled `trust proxy` (TRUST_PROXY): which hops may report the client in X-Forwarded-For. */
  trustProxy: (address: string, hop: number) => boolean;
  /** Whether TRUST_PROXY is set at all: without it X-Forwarded-For is never believed. */
  proxyTrusted: boolean;
  render: () => Promise<{ contentType: string; body: string }>;
}

const digest = (s: string) => createHash('sha256').update(s).digest();

const LOOPBACK_V4 = /^(?:::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/i;
export const isLoopback = (address: string | undefined) =>
  !!address && (address === '::1' || LOOPBACK_V4.test(address));

function refuse(res: ServerResponse, status: number, code: ErrorCode, title: string, headers = {}) {
  const body = JSON.stringify({ type: `urn:tributary:problem:${code}`, title, status, code });
  res.writeHead(status, {
    'Content-Type': 'application/problem+json; charset=utf-8',
    'Cache-Control': 'no-store',
    'Content-Length': Buffer.byteLength(body),
    ...headers,
  });
  res.end(body);
}

/**
 * Who may scrape. With a token: exactly `Authorization: Bearer <token>`, compared by digest in constant
 * time, from anywhere. Without: only a loopback client — the TCP peer, or, with TRUST_PROXY, the address
 * the trusted proxies report (as for rate limits). A request that names a forwarded client we cannot
 * judge (`Forwarded`, `X-Real-IP`, or `X-Forwarded-For` while TRUST_PROXY is off) came through a proxy on
 * this machine for someone else: refused.
 */
export function metricsAccess(
  req: IncomingMessage,
  o: Pick<MetricsEndpointOptions, 'token' | 'trustProxy' | 'proxyTrusted'>,
): { ok: true } | { ok: false; status: 401 | 403 } {
  if (o.token !== undefined) {
    const given = /^Bearer +(\S+) *$/i.exec(req.headers.authorization ?? '')?.[1];
    if (given !== undefined && timingSafeEqual(digest(given), digest(o.token))) return { ok: true };
    return { ok: false, status: 401 };
  }
  const h = req.headers;
  if (h.forwarded !== undefined || h['x-real-ip'] !== undefined) return { ok: false, status: 403 };
  if (h['x-forwarded-for'] !== undefined && !o.proxyTrusted) return { ok: false, status: 403 };
  if (!isLoopback(req.socket.remoteAddress)) return { ok: false, status: 403 };
  // proxy-addr walks X-Forwarded-For from the socket back through trusted hops only.
  const client = o.proxyTrusted ? proxyAddr(req, o.trustProxy) : req.socket.remoteAddress;
  return isLoopback(client) ? { ok: true } : { ok: false, status: 403 };
}

/** Answers GET/HEAD /metrics on a plain Node request (before Express, or on METRICS_PORT's own listener). */
export function metricsEndpoint(o: MetricsEndpointOptions) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      refuse(res, 405, 'route.method_not_allowed', 'GET /metrics only', { Allow: 'GET, HEAD' });
      return;
    }
    const access = metricsAccess(req, o);
    if (!access.ok) {
      if (access.status === 401)
        refuse(res, 401, 'metrics.token_required', 'the metrics need METRICS_TOKEN as a bearer token', {
          'WWW-Authenticate': 'Bearer realm="metrics"',
        });
      else
        refuse(
          res,
          403,
          'metrics.local_only',
          'without METRICS_TOKEN the metrics answer loopback clients only',
        );
      return;
    }
    o.render().then(
      ({ contentType, body }) => {
        res.writeHead(200, {
          'Content-Type': contentType,
          'Cache-Control': 'no-store',
          'Content-Length': Buffer.byteLength(body),
        });
        res.end(req.method === 'HEAD' ? undefined : body);
      },
      () => refuse(res, 503, 'service.unavailable', 'the metrics could not be read'),
    );
  };
}

/** Whether a request is for /metrics (any query string). */
export const isMetricsPath = (url: string | undefined) =>
  url === '/metrics' || !!url?.startsWith('/metrics?');

/** The route label of requests that matched no Express route (404s, refusals before routing). */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * Follows a request through Express to the route pattern it matched (`/api/ops/:name`), never its path:
 * the router sets `req.route` when a route matches, and the mount path is `req.baseUrl` at that moment.
 * Every router here is mounted at a literal path, so the label set is as small as the route table.
 * Returns a function that names the label once the answer has ended.
 */
export function followRoute(req: IncomingMessage): () => string {
  let route: unknown;
  let label: string | null = null;
  Object.defineProperty(req, 'route', {
    configurable: true,
    enumerable: true,
    get: () => route,
    set(value: unknown) {
      route = value;
      const path = (value as { path?: unknown } | undefined)?.path;
      const base = (req as { baseUrl?: string }).baseUrl ?? '';
      const matched = typeof path === 'string' ? path : literalMatched(path, (req as { path?: string }).path);
      // A RegExp, or a list whose matching entry is a pattern: named by its mount only.
      label = matched !== undefined ? base + matched : `${base}(pattern)`;
    },
  });
  return () => label ?? UNMATCHED_ROUTE;
}

/**
 * The entry of a route's list of paths that the request matched, when that entry is a literal path:
 * routes declared for several paths at once (`['/api/mcp/oauth/token', '/api/mcp/device/token']`) are
 * still labelled per path. Compared as Express matches by default: case-insensitive, a trailing slash
 * allowed. Undefined for a RegExp or a pattern with parameters (the label stays bounded either way).
 */
function literalMatched(paths: unknown, requested: string | undefined): string | undefined {
  if (!Array.isArray(paths) || requested === undefined) return undefined;
  const norm = (p: string) => (p.length > 1 && p.endsWith('/') ? p.slice(0, -1) : p).toLowerCase();
  const want = norm(requested);
  return paths.find((p): p is string => typeof p === 'string' && !/[:*?(){}]/.test(p) && norm(p) === want);
}
