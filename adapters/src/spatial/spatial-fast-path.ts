// GET /wow/spatial/<id> answered before Express when its body is cached (docs/spatial.md#caching), as
// published sites are (adapters/src/builder/site-server): the same bytes, status and headers the route
// sends, the same per-address rate limit, without the application's routing. Anything else — another
// path, a body not cached yet, a client over its limit (Express then answers the 429) — falls through.
import type { IncomingMessage, ServerResponse } from 'node:http';
import proxyAddr from 'proxy-addr';
import { addressKey } from '../http/index.js';
import type { SpatialBodyCache } from './spatial-body-cache.js';
import { CACHE_WOW } from './wow-headers.js';

const SPATIAL_PATH =
  /^\/wow\/spatial\/([0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12})$/i;

export interface WowFastPathOptions {
  bodies: SpatialBodyCache;
  /** The feed's per-address limiter (RATE_LIMIT_FEED), shared with the route. */
  limiter: { take(key: string): number };
  /** The app's TRUST_PROXY decision, so a client is the same address here as in Express. */
  trustProxy: (address: string, hop: number) => boolean;
}

export function createWowFastPath(o: WowFastPathOptions) {
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const m = SPATIAL_PATH.exec(req.url ?? '');
    if (!m) return false;
    const cached = o.bodies.peek(m[1]!.toLowerCase());
    if (!cached) return false;
    if (o.limiter.take(addressKey(proxyAddr(req, o.trustProxy))) > 0) return false;
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Access-Control-Expose-Headers', 'Retry-After, X-Request-Id');
    res.setHeader('Cache-Control', CACHE_WOW);
    res.setHeader('ETag', cached.etag);
    if (req.headers['if-none-match'] === cached.etag) {
      res.statusCode = 304;
      res.end();
      return true;
    }
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.setHeader('Content-Length', String(cached.body.length));
    res.statusCode = 200;
    res.end(req.method === 'HEAD' ? undefined : cached.body);
    return true;
  };
}
export type WowFastPath = ReturnType<typeof createWowFastPath>;
