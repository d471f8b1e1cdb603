import { invalid } from '@tributary/domain';
import { z } from 'zod';
import { defineOperation } from '../pipeline/operation.js';
import type { Services } from '../pipeline/services.js';

export const FEED_DEFAULT_LIMIT = 100;
export const FEED_MAX_LIMIT = 500;

export const feedQuery = z.strictObject({
  since: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(FEED_MAX_LIMIT).default(FEED_DEFAULT_LIMIT),
});

/** The public feed: federable, public events after `since`, in sequence order. */
export async function readFeed(services: Services, query: { since: number; limit: number }) {
  const { events, head } = await services.store.readAll({
    since: query.since,
    limit: query.limit + 1,
    feedOnly: true,
  });
  if (query.since > head)
    throw invalid('feed.since_after_head', 'since is past the head of the log', { head });
  const page = events.slice(0, query.limit);
  return {
    events: page.map((e) => ({ sequence: e.sequence, event: e.envelope })),
    head,
    hasMore: events.length > query.limit,
  };
}

export const readFeedTool = defineOperation({
  name: 'svc.federation.read_feed',
  title: 'Read the event feed',
  description: 'Signed public events after a sequence number, as peers read them.',
  kind: 'query',
  scopes: ['svc.federation.read'],
  enabledFor: ['session', 'token'],
  actsForAgent: false,
  input: feedQuery,
  async run(ctx, input) {
    return readFeed(ctx.services, input);
  },
});
