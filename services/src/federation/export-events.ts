// POST /api/federation/events/export: the events the authenticated peer may take from us: our own
// federable events after `since`, in feed order, each as the exact text we signed (so nothing is
// re-encoded on the way). Imported events are never re-exported: a peer accepts only an origin's own.
import { z } from 'zod';
import { FEED_DEFAULT_LIMIT, FEED_MAX_LIMIT } from '../shared/log-page.js';
import { invalid } from '@tributary/domain';
import type { Services } from '../pipeline/services.js';

export const exportQuery = z.strictObject({
  since: z.number().int().min(0).default(0),
  limit: z.number().int().min(1).max(FEED_MAX_LIMIT).default(FEED_DEFAULT_LIMIT),
});

export interface ExportPage {
  events: { sequence: number; text: string }[];
  head: number;
  hasMore: boolean;
}

export async function exportEvents(
  services: Services,
  query: { since: number; limit: number },
): Promise<ExportPage> {
  const { events, head } = await services.store.readAll({
    since: query.since,
    limit: query.limit + 1,
    feedOnly: true,
  });
  if (query.since > head)
    throw invalid('feed.since_after_head', 'since is past the head of the log', { head });
  const page = events.slice(0, query.limit);
  return {
    events: page.map((e) => ({ sequence: e.sequence, text: e.text })),
    head,
    hasMore: events.length > query.limit,
  };
}
