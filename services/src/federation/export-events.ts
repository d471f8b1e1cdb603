// POST /api/federation/events/export: the events the authenticated peer may take from us: our feed after
// `since`, in feed order, each as the exact text its origin signed (so nothing is re-encoded on the way).
// Our feed holds our own federable events — and, on a relay, those it accepted from its peers, less the
// asking peer's own and origins it does not follow (docs/federation.md#relay).
import { z } from 'zod';
import { FEED_DEFAULT_LIMIT, FEED_MAX_LIMIT } from '../shared/log-page.js';
import { invalid } from '@tributary/domain';
import type { FederationOperationServices } from './federation-operation.js';

export const exportQuery = z.strictObject({
  since: z.number().int().min(0).default(0),
  limit: z.number().int().min(1).max(FEED_MAX_LIMIT).default(FEED_DEFAULT_LIMIT),
});

/** `POST /api/federation/events/held`: a page of the signing peer's own events we imported. */
export const heldQuery = z.strictObject({
  after: z.number().int().min(0).default(0),
  limit: z.number().int().min(1).max(FEED_MAX_LIMIT).default(FEED_MAX_LIMIT),
});

export interface ExportPage {
  events: { sequence: number; text: string }[];
  head: number;
  hasMore: boolean;
}

export async function exportEvents(
  services: FederationOperationServices,
  query: { since: number; limit: number },
  filter: { exceptOrigin?: string; origins?: readonly string[] | null } = {},
): Promise<ExportPage> {
  const { rows, head } = await services.store.readFeedPage({
    since: query.since,
    limit: query.limit + 1,
    ...filter,
    // A peer pulls by cursor: a page from a standby a moment behind is as good (it never skips).
    tolerateLag: true,
  });
  if (query.since > head)
    throw invalid('feed.since_after_head', 'since is past the head of the log', { head });
  const page = rows.slice(0, query.limit);
  const hasMore = rows.length > query.limit;
  // A filtered page may hold fewer events than the feed: the asker's cursor may still move to the head.
  return { events: page, head, hasMore };
}
