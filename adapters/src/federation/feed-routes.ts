// GET /api/federation/events?since=&limit= — public: signed federable events in sequence order.
import { feedQuery, streamFeed } from '@tributary/services';
import { invalid } from '@tributary/domain';
import { Router, type Response } from 'express';
import {
  type HttpContext,
  openApiJson as json,
  problemResponse as problem,
  publicDocument,
  publicSecurity,
} from '../http/index.js';

/** Pieces are gathered into writes of about this many characters (one socket write each). */
const FLUSH_AT = 64 * 1024;

/**
 * A page known to be full when its headers leave (`hasMore`: more events follow it) holds events that
 * never change — sequence numbers are given in order and never reused — and only its `head` ages, which
 * a reader may see a little stale. Any other page can grow with the next event: revalidate every time.
 * A page of more than one write (over 64 kB) sends its headers before its end is known, so it is
 * `no-cache` too; knowing earlier would cost the hot path a second look at the index.
 */
const CACHE_FULL_FEED_PAGE = 'public, max-age=300';
const CACHE_OPEN_FEED_PAGE = 'no-cache';

export function feedRoutes(ctx: HttpContext): Router {
  const r = Router();
  const doc = publicDocument(ctx, { limit: 'feed' });
  r.options('/events', doc);
  r.get('/events', doc, async (req, res) => {
    const parsed = feedQuery.safeParse(req.query);
    if (!parsed.success)
      throw invalid('feed.bad_query', 'since must be a sequence number ≥ 0 and limit 1–500', {
        issues: parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
      });
    const out = pageWriter(res);
    try {
      await streamFeed(ctx.services, parsed.data, out);
    } catch (e) {
      // Before the first byte the error is an ordinary problem+json; after it, only cutting the
      // response short tells the reader the page is not whole.
      if (!res.headersSent) throw e;
      res.destroy(e as Error);
      return;
    }
    out.end();
  });
  return r;
}

/** Writes the page as it is produced: status and type with the first piece, then ~64 kB writes. */
function pageWriter(res: Response) {
  let pending = '';
  const flush = () => {
    if (!res.headersSent)
      res.status(200).type('application/json').setHeader('Cache-Control', CACHE_OPEN_FEED_PAGE);
    res.write(pending);
    pending = '';
  };
  return {
    write(text: string) {
      pending += text;
      if (pending.length >= FLUSH_AT) flush();
    },
    end() {
      if (!res.headersSent) {
        // The whole page fitted in one piece: sent with its length, as before.
        const full = pending.endsWith('"hasMore":true}');
        res
          .setHeader('Cache-Control', full ? CACHE_FULL_FEED_PAGE : CACHE_OPEN_FEED_PAGE)
          .type('application/json')
          .send(pending);
        return;
      }
      res.end(pending);
    },
  };
}

/** The OpenAPI path of the feed. */
export function feedPaths(): Record<string, unknown> {
  return {
    '/api/federation/events': {
      get: {
        operationId: 'svc.federation.feed',
        security: publicSecurity,
        summary: 'Signed public events after `since`, in sequence order (public)',
        parameters: Object.entries(
          (json(feedQuery) as { properties: Record<string, unknown> }).properties,
        ).map(([name, schema]) => ({
          name,
          in: 'query',
          schema,
        })),
        responses: {
          '200': {
            description:
              '{ events: [{ sequence, event }], head, hasMore }; Cache-Control public, max-age=300 when known full, else no-cache',
            content: { 'application/json': { schema: { type: 'object' } } },
          },
          '429': {
            description: 'Too many requests from this address; `Retry-After` says when to retry',
            headers: { 'Retry-After': { schema: { type: 'integer' } } },
          },
          default: problem,
        },
      },
    },
  };
}
