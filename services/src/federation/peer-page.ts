// The operator's views of the peers (svc.federation.list_peers, svc.federation.status) are pages: in
// registration order, at most PEER_PAGE_MAX a page, after an opaque cursor the previous page gave, and
// optionally of one state; with them, every peer counted by state and how far sync lags
// (docs/api.md#peers). A thousand peers cost a page and one aggregate query, not a list of all of them.
import { invalid } from '@tributary/domain';
import { z } from 'zod';
import type { PeerPageQuery, PeerSyncState } from './ports/federation.js';

export const PEER_PAGE_MAX = 200;
export const PEER_PAGE_DEFAULT = 50;
export const PEER_STATES = [
  'reachable',
  'failing',
  'unknown',
  'blocked',
] as const satisfies readonly PeerSyncState[];

/** The paging input both operations take. */
export const peerPageInput = {
  // A number or its decimal text (a query string's `?limit=`): checked in peerPageQuery, so that every
  // bad limit answers federation.bad_page_limit.
  limit: z
    .union([z.number(), z.string().max(20)])
    .optional()
    .describe(`peers a page, 1–${PEER_PAGE_MAX} (default ${PEER_PAGE_DEFAULT})`),
  after: z.string().max(300).optional().describe('the `next` cursor of the previous page'),
  state: z
    .enum(PEER_STATES)
    .optional()
    .describe(
      'only peers in this state: reachable (answered, nothing failing), failing (a sync cursor in backoff), unknown (never contacted), blocked',
    ),
};

export const peerSummaryOutput = z
  .object({
    total: z.number(),
    reachable: z.number(),
    failing: z.number(),
    unknown: z.number(),
    blocked: z.number(),
    lag: z.object({
      pushBehind: z.number().describe('unblocked peers whose push cursor is behind our feed'),
      pushMaxBehind: z.number().describe('the most a push cursor is behind, in feed sequences'),
      pullBehind: z.number().describe('unblocked peers we have not pulled up to their head'),
      pullMaxBehind: z.number().describe('the most a pull cursor is behind the peer’s head, in sequences'),
    }),
  })
  .describe('every peer counted by state, and how far sync lags');

const CURSOR_PREFIX = 'peers1:';

export const encodePeerCursor = (p: { registeredAt: string; peerId: string }) =>
  Buffer.from(`${CURSOR_PREFIX}${p.registeredAt}|${p.peerId}`).toString('base64url');

const badCursor = () =>
  invalid('federation.bad_cursor', 'after must be the `next` cursor of a previous page of peers');

/** The page asked for, or federation.bad_page_limit / federation.bad_cursor. */
export function peerPageQuery(input: {
  limit?: number | string | undefined;
  after?: string | undefined;
  state?: PeerSyncState | undefined;
}): PeerPageQuery {
  const limit = input.limit === undefined ? PEER_PAGE_DEFAULT : Number(input.limit);
  if (
    !Number.isInteger(limit) ||
    limit < 1 ||
    limit > PEER_PAGE_MAX ||
    (typeof input.limit === 'string' && !/^\d+$/.test(input.limit))
  )
    throw invalid('federation.bad_page_limit', `limit must be a whole number from 1 to ${PEER_PAGE_MAX}`, {
      max: PEER_PAGE_MAX,
    });
  let after: PeerPageQuery['after'];
  if (input.after !== undefined) {
    if (!/^[A-Za-z0-9_-]{1,300}$/.test(input.after)) throw badCursor();
    const text = Buffer.from(input.after, 'base64url').toString('utf8');
    const m = /^peers1:(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d{1,6})?Z)\|([^|]{1,200})$/.exec(text);
    if (!m || Number.isNaN(Date.parse(m[1]!))) throw badCursor();
    after = { registeredAt: m[1]!, peerId: m[2]! };
  }
  return { limit, after, state: input.state };
}

/**
 * A page read with one peer more than asked (`limit + 1`): the page itself, and the cursor of the page
 * after it, or null when this one is the last.
 */
export function pageOfPeers<T extends { registeredAt: string; peerId: string }>(
  rows: readonly T[],
  limit: number,
): { page: T[]; next: string | null } {
  const page = rows.slice(0, limit);
  return { page, next: rows.length > limit ? encodePeerCursor(page[page.length - 1]!) : null };
}
