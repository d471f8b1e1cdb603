// Per-client-address rate limits for the public, unauthenticated surfaces (client registration,
// discovery documents, the feed). A token bucket per address, in this process's memory: one Map lookup
// per request and no database round trip, so the feed's hot path pays next to nothing for it. With several
// processes each keeps its own buckets (docs/operations.md).
import type { Request, RequestHandler, Response } from 'express';
import { isIPv6 } from 'node:net';

/** `count` requests per `perSeconds`, all of which may come at once; `null` turns the limit off. */
type RateLimit = { count: number; perSeconds: number } | null;

export interface RateLimiter {
  /** Takes one request for `key`: 0 when allowed, else the whole seconds until one is allowed again. */
  take(key: string): number;
  /** What `take` would answer, taking nothing (a limit counted only on some outcomes). */
  peek(key: string): number;
}

/** Addresses tracked at most per limiter; the least recently seen is forgotten first. */
const RATE_LIMIT_MAX_ADDRESSES = 100_000;

export function createRateLimiter(
  limit: RateLimit,
  o: { now?: () => number; maxKeys?: number } = {},
): RateLimiter {
  if (!limit) return { take: () => 0, peek: () => 0 };
  const now = o.now ?? (() => performance.now());
  const maxKeys = o.maxKeys ?? RATE_LIMIT_MAX_ADDRESSES;
  const perMs = limit.count / (limit.perSeconds * 1000);
  const buckets = new Map<string, { tokens: number; at: number }>();
  const waitFor = (tokens: number) => Math.max(1, Math.ceil((1 - tokens) / perMs / 1000));
  const refilled = (b: { tokens: number; at: number }, t: number) =>
    Math.min(limit.count, b.tokens + (t - b.at) * perMs);
  return {
    peek(key) {
      const b = buckets.get(key);
      if (!b) return 0;
      const tokens = refilled(b, now());
      return tokens >= 1 ? 0 : waitFor(tokens);
    },
    take(key) {
      const t = now();
      let b = buckets.get(key);
      if (b) {
        buckets.delete(key); // re-inserted below: the Map's order is then least recently seen first
        b.tokens = refilled(b, t);
        b.at = t;
      } else {
        b = { tokens: limit.count, at: t };
        if (buckets.size >= maxKeys) buckets.delete(buckets.keys().next().value!);
      }
      buckets.set(key, b);
      if (b.tokens >= 1) {
        b.tokens -= 1;
        return 0;
      }
      return waitFor(b.tokens);
    },
  };
}

/**
 * The key of a client: its address as Express gives it (`req.ip`, which reads `X-Forwarded-For` only
 * as far as TRUST_PROXY trusts), IPv4-mapped IPv6 as IPv4, and IPv6 by its /64 — one host usually holds
 * a whole /64, so counting single IPv6 addresses would let it make up new ones without end.
 */
export function clientAddressKey(req: Request): string {
  return addressKey(req.ip ?? req.socket?.remoteAddress ?? '');
}

/** The key of a client address: IPv4-mapped IPv6 as IPv4, IPv6 by its /64 (see clientAddressKey). */
export function addressKey(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1]!;
  if (!isIPv6(ip)) return ip;
  return `${expandIPv6(ip).slice(0, 4).join(':')}::/64`;
}

function expandIPv6(ip: string): string[] {
  const [head = '', tail] = ip.split('%')[0]!.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  // An embedded IPv4 tail (::1.2.3.4) holds the last two groups: they do not matter for the /64.
  const missing = 8 - left.length - right.length;
  const groups = [...left, ...Array<string>(Math.max(0, missing)).fill('0'), ...right];
  return groups.map((g) => (g.includes('.') ? g : g.toLowerCase().replace(/^0+(?=.)/, '')));
}

/** Refuses a request over its limit with 429, `Retry-After` and whatever body `refuse` writes. */
export function rateLimited(
  limiter: RateLimiter,
  refuse: (res: Response, retryAfter: number) => void,
): RequestHandler {
  return (req, res, next) => {
    const wait = limiter.take(clientAddressKey(req));
    if (wait === 0) return next();
    res.setHeader('Retry-After', String(wait));
    refuse(res, wait);
  };
}

/** The limits of the public surfaces, one limiter each, shared by every route of that kind. */
export interface PublicRateLimits {
  /** POST /api/mcp/oauth/register (RFC 7591): every accepted registration is a permanent event. */
  registration: RateLimiter;
  /** Discovery documents, manifests, OAuth metadata, /llms.txt, the OpenAPI document, the landing page. */
  discovery: RateLimiter;
  /** The public feed and the other public reads of the log (query, registry, discover). */
  feed: RateLimiter;
  /** The public status summaries (GET /api/federation/status without credentials, /node-status). */
  status: RateLimiter;
  /** Caddy's on-demand TLS `ask` (GET /api/builder/tls-ask). */
  tlsAsk: RateLimiter;
  /** Single sign-on's routes (docs/sso.md#limits): one budget per route family and address. */
  ssoIssue: RateLimiter;
  ssoLand: RateLimiter;
  ssoPeer: RateLimiter;
  /** Stripe's webhook: deliveries refused as not Stripe's (bad signature, not an event), counted only. */
  webhookRefusals: RateLimiter;
}

export interface PublicRateLimitSettings {
  registration: RateLimit;
  discovery: RateLimit;
  feed: RateLimit;
  status?: RateLimit;
  tlsAsk?: RateLimit;
  sso?: RateLimit;
  webhookRefusals?: RateLimit;
}

/**
 * The defaults docs/configuration.md states (RATE_LIMIT_REGISTRATION, _DISCOVERY, _FEED, _STATUS, _TLS_ASK,
 * _SSO, _WEBHOOK_REFUSALS).
 */
export const DEFAULT_RATE_LIMITS: PublicRateLimitSettings = {
  registration: { count: 20, perSeconds: 3600 },
  discovery: { count: 300, perSeconds: 60 },
  feed: { count: 600, perSeconds: 60 },
  status: { count: 120, perSeconds: 60 },
  tlsAsk: { count: 1200, perSeconds: 60 },
  sso: { count: 30, perSeconds: 60 },
  webhookRefusals: { count: 60, perSeconds: 60 },
};

export function createPublicRateLimits(s: PublicRateLimitSettings = DEFAULT_RATE_LIMITS): PublicRateLimits {
  const sso = s.sso === undefined ? DEFAULT_RATE_LIMITS.sso! : s.sso;
  return {
    registration: createRateLimiter(s.registration),
    discovery: createRateLimiter(s.discovery),
    feed: createRateLimiter(s.feed),
    status: createRateLimiter(s.status === undefined ? DEFAULT_RATE_LIMITS.status! : s.status),
    tlsAsk: createRateLimiter(s.tlsAsk === undefined ? DEFAULT_RATE_LIMITS.tlsAsk! : s.tlsAsk),
    ssoIssue: createRateLimiter(sso),
    ssoLand: createRateLimiter(sso),
    ssoPeer: createRateLimiter(sso),
    webhookRefusals: createRateLimiter(
      s.webhookRefusals === undefined ? DEFAULT_RATE_LIMITS.webhookRefusals! : s.webhookRefusals,
    ),
  };
}
