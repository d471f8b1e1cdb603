// GET /api/federation/events?since=&limit= — public: signed federable events in sequence order.
import { feedPageBytes, feedQuery, readFeed } from '@tributary/services';
import { invalid } from '@tributary/domain';
import { Router } from 'express';
import type { HttpContext } from '../context.js';

export function feedRoutes(ctx: HttpContext): Router {
  const r = Router();
  r.get('/events', async (req, res) => {
    const parsed = feedQuery.safeParse(req.query);
    if (!parsed.success)
      throw invalid('feed.bad_query', 'since must be a sequence number ≥ 0 and limit 1–500', {
        issues: parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
      });
    res.type('application/json').send(feedPageBytes(await readFeed(ctx.services, parsed.data)));
  });
  return r;
}
