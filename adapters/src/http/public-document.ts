// Public read-only documents (discovery, manifests, metadata, the feed, the registry): readable from any
// origin alike, rate-limited per client address, and cached as each allows. No credentials are involved
// (`Access-Control-Allow-Origin: *` never lets a browser send cookies), so CORS here lends nobody's
// session.
import type { RequestHandler } from 'express';
import type { HttpContext } from './context.js';
import { sendProblem } from './problem.js';
import { rateLimited, type PublicRateLimits } from './rate-limit.js';

/** Discovery documents and manifests: they change only with configuration or the instance's name. */
export const CACHE_DOCUMENT = 'public, max-age=300';
/** OAuth metadata: clients act on it (endpoints, scopes), so a change must reach them soon. */
export const CACHE_OAUTH_METADATA = 'public, max-age=60';

interface PublicDocumentOptions {
  /** Which per-address limit the document counts against. */
  limit: keyof PublicRateLimits;
  /** The document's Cache-Control; unset: the route sets its own (the app's default is no-store). */
  cacheControl?: string;
  /** The methods the path answers (preflight and `Allow`); GET, HEAD and OPTIONS when unset. */
  methods?: readonly string[];
}

export function publicDocument(ctx: HttpContext, o: PublicDocumentOptions): RequestHandler {
  const methods = (o.methods ?? ['GET', 'HEAD', 'OPTIONS']).join(', ');
  const limited = rateLimited(ctx.limits[o.limit], (res, retryAfter) =>
    sendProblem(res, {
      status: 429,
      code: 'request.rate_limited',
      title: 'Too many requests from this address',
      retryAfter,
    }),
  );
  return (req, res, next) => {
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Access-Control-Expose-Headers', 'Retry-After, X-Request-Id');
    if (req.method === 'OPTIONS') {
      res.setHeader('Access-Control-Allow-Methods', methods);
      res.setHeader('Access-Control-Allow-Headers', 'Content-Type, Authorization, X-Requested-With');
      res.setHeader('Access-Control-Max-Age', '600');
      res.setHeader('Allow', methods);
      return void res.status(204).end();
    }
    limited(req, res, () => {
      if (o.cacheControl) res.setHeader('Cache-Control', o.cacheControl);
      next();
    });
  };
}
