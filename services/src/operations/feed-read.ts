import { invalid, type Envelope } from '@tributary/domain';
import { z } from 'zod';
import { defineOperation } from '../pipeline/operation.js';
import type { Services } from '../pipeline/services.js';

export const FEED_DEFAULT_LIMIT = 100;
export const FEED_MAX_LIMIT = 500;

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
  services: Services,
  query: { since: number; limit: number },
): Promise<FeedPage> {
  const { rows, head } = await services.store.readFeedPage({ since: query.since, limit: query.limit + 1 });
  if (query.since > head)
    throw invalid('feed.since_after_head', 'since is past the head of the log', { head });
  return { items: rows.slice(0, query.limit), head, hasMore: rows.length > query.limit };
}

/**
 * The feed's JSON body, `{ events: [{ sequence, event }], head, hasMore }`, assembled from the stored
 * texts: they are already JSON, so peers receive the exact signed bytes and nothing is re-serialized.
 */
export const feedPageJson = (page: FeedPage): string =>
  `{"events":[${page.items.map((i) => `{"sequence":${i.sequence},"event":${i.text}}`).join(',')}],"head":${page.head},"hasMore":${page.hasMore}}`;

/**
 * `feedPageJson`'s exact UTF-8 bytes, written straight into one buffer: the feed route's hot path skips
 * building (and then encoding) one 300 kB string out of 500 small ones.
 */
export function feedPageBytes(page: FeedPage): Buffer {
  const tail = `],"head":${page.head},"hasMore":${page.hasMore}}`;
  const heads = page.items.map((i, k) => `${k === 0 ? '' : ','}{"sequence":${i.sequence},"event":`);
  let length = FEED_OPEN.length + tail.length;
  for (let k = 0; k < heads.length; k++)
    length += heads[k]!.length + Buffer.byteLength(page.items[k]!.text) + 1;
  const out = Buffer.allocUnsafe(length);
  // The framing is ASCII, so latin1 writes it byte for byte; the stored texts are written as UTF-8.
  let at = out.write(FEED_OPEN, 0, 'latin1');
  for (let k = 0; k < heads.length; k++) {
    at += out.write(heads[k]!, at, 'latin1');
    at += out.write(page.items[k]!.text, at, 'utf8');
    out[at++] = 0x7d; // }
  }
  out.write(tail, at, 'latin1');
  return out;
}

const FEED_OPEN = '{"events":[';

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
    const page = await readFeed(ctx.services, input);
    return {
      events: page.items.map((i) => ({ sequence: i.sequence, event: JSON.parse(i.text) as Envelope })),
      head: page.head,
      hasMore: page.hasMore,
    };
  },
});
