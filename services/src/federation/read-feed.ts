import { invalid, type Envelope } from '@tributary/domain';
import { z } from 'zod';
import { defineFederationAreaOperation } from './federation-operation.js';
import type { FederationAreaServices } from './federation-operation.js';
import { FEED_DEFAULT_LIMIT, FEED_MAX_LIMIT } from '../shared/log-page.js';

export { FEED_DEFAULT_LIMIT, FEED_MAX_LIMIT };

export const feedQuery = z.strictObject({
  since: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(FEED_MAX_LIMIT).default(FEED_DEFAULT_LIMIT),
});

export interface FeedPage {
  /** Each event's sequence and its exact stored envelope text (canonical JSON, signature included). */
  items: { sequence: number; text: string }[];
  head: number;
  hasMore: boolean;
}

/** The public feed: federable, public events after `since`, in sequence order. */
export async function readFeed(
  services: Pick<FederationAreaServices, 'store'>,
  query: { since: number; limit: number },
): Promise<FeedPage> {
  const { rows, head } = await services.store.readFeedPage({ since: query.since, limit: query.limit + 1 });
  if (query.since > head) throw sinceAfterHead(head);
  return { items: rows.slice(0, query.limit), head, hasMore: rows.length > query.limit };
}

/**
 * The feed page written as its rows arrive from the store, as exactly the page's JSON text in pieces:
 * the route sends the first events while the database is still producing the rest. Rows come after
 * the head, and there are none when `since` is past it, so that error is raised before anything is
 * written.
 */
export async function streamFeed(
  services: Pick<FederationAreaServices, 'store'>,
  query: { since: number; limit: number },
  out: { write(text: string): void },
): Promise<void> {
  let head = 0;
  let count = 0;
  // One row beyond the limit only tells whether there is more.
  await services.store.streamFeedPage(
    { since: query.since, limit: query.limit + 1 },
    {
      head(h) {
        head = h;
      },
      row(sequence, text) {
        if (count === query.limit) {
          count++;
          return;
        }
        out.write(`${count === 0 ? FEED_OPEN : ','}{"sequence":${sequence},"event":${text}}`);
        count++;
      },
    },
  );
  if (query.since > head) throw sinceAfterHead(head);
  out.write(`${count === 0 ? FEED_OPEN : ''}],"head":${head},"hasMore":${count > query.limit}}`);
}

const FEED_OPEN = '{"events":[';

const sinceAfterHead = (head: number) =>
  invalid('feed.since_after_head', 'since is past the head of the log', { head });

export const readFeedTool = defineFederationAreaOperation({
  name: 'svc.federation.read_feed',
  title: 'Read the event feed',
  description: 'Signed public events after a sequence number, as peers read them.',
  kind: 'query',
  scopes: ['svc.federation.read'],
  enabledFor: ['session', 'token'],
  actsForAgent: false,
  input: feedQuery,
  async run(ctx, input) {
    const page = await readFeed(ctx.services, input);
    return {
      events: page.items.map((i) => ({ sequence: i.sequence, event: JSON.parse(i.text) as Envelope })),
      head: page.head,
      hasMore: page.hasMore,
    };
  },
});
