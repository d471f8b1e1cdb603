// One sync attempt with one peer, in one direction (docs/architecture.md#log):
// - push: the next batch of our feed after the peer's cursor goes to the peer's import route; the cursor
//   moves to the batch's last sequence once the peer has answered (accepted, duplicate or refused, each
//   event is then settled: sending it again would change nothing).
// - pull: the next page of the peer's export after our cursor for it is imported here through the same
//   import as a push (verification, dedup, placeholders); after long silence the catch-up may take
//   events older than the replay window (allowHistorical), push and import stay strict.
// Push and pull share the peer's pull cursor (receive-push.ts): a push batch that arrives in order moves it,
// and the pull then waits PUSH_QUIET_INTERVALS pull intervals after the last push, so each event crosses
// the hop once.
// A failure leaves the cursor where it was and schedules the next attempt with capped, jittered backoff.
import {
  DomainError,
  isDomainError,
  pullMayReplayHistory,
  retryDelayMs,
  SYNC_BATCH_MAX_BYTES,
  SYNC_BATCH_MAX_EVENTS,
  type SyncDirection,
} from '@tributary/domain';
import { importPage, type ImportSummary } from './import/import-events.js';
import type { FederationOperationServices } from './federation-operation.js';
import type { SyncCursor, SyncOutcome } from './ports/federation.js';
import { createPagePrefetch, type PagePrefetch } from './page-prefetch.js';
import { preparePage, type PreparedPage } from './prepare-page.js';
import { relayFilterFor } from './relay.js';
import type { PeerView } from './ports/federation.js';

/**
 * Each instance's pages fetched and prepared ahead (one process may compose several instances: the tests
 * do).
 */
const prefetches = new WeakMap<FederationOperationServices, PagePrefetch<PreparedPage>>();
function prefetchOf(services: FederationOperationServices): PagePrefetch<PreparedPage> {
  let p = prefetches.get(services);
  if (!p) prefetches.set(services, (p = createPagePrefetch<PreparedPage>()));
  return p;
}

export interface SyncSettings {
  /** The first retry after a failure waits about this long; each further failure doubles it. */
  retryBaseMs: number;
  /** How often each peer's feed is pulled when it has nothing new. */
  pullIntervalMs: number;
  random?: () => number;
  /**
   * Test-only fault injection: called after a push batch was delivered and before its cursor is
   * committed (a crash here must not duplicate anything).
   */
  afterPushDelivered?: () => void;
}

/**
 * How many pull intervals of silence after the last in-order push from a peer before its feed is pulled
 * (docs/federation.md#push-and-pull-share-a-cursor).
 */
export const PUSH_QUIET_INTERVALS = 3;

export async function syncPeer(
  services: FederationOperationServices,
  peerId: string,
  direction: SyncDirection,
  settings: SyncSettings,
): Promise<SyncOutcome | null> {
  const fed = services.federation;
  if (!fed.cursors || !fed.client)
    throw new DomainError('federation.unavailable', 'unavailable', 'this process does not sync');
  const now = services.clock.now();
  return fed.cursors.attempt(peerId, direction, now, async (cursor) => {
    try {
      const peer = await fed.read.peer(peerId);
      if (!peer) throw new DomainError('federation.peer_not_found', 'not_found', 'the peer is gone');
      if (peer.blocked) throw new DomainError('federation.peer_blocked', 'forbidden', 'the peer is blocked');
      return direction === 'push'
        ? await push(services, peerId, peer.baseUrl, cursor, now, settings)
        : await pull(services, peer, cursor, now, settings);
    } catch (e) {
      const failures = cursor.attempts + 1;
      let retryAt =
        now.getTime() +
        retryDelayMs(failures, (settings.random ?? Math.random)(), {
          baseMs: settings.retryBaseMs,
        });
      const retryAfter = isDomainError(e) ? Number(e.details?.retryAfter) : NaN;
      if (retryAfter > 0) retryAt = Math.max(retryAt, now.getTime() + retryAfter * 1000);
      return {
        kind: 'failed',
        code: isDomainError(e) ? e.code : 'federation.peer_unreachable',
        message: (e as Error).message || String(e),
        retryAt: new Date(retryAt),
      };
    }
  });
}

async function push(
  services: FederationOperationServices,
  peerId: string,
  baseUrl: string,
  cursor: SyncCursor,
  now: Date,
  settings: SyncSettings,
): Promise<SyncOutcome> {
  const fed = services.federation;
  // A relay delivers to each peer what it follows, never the peer's own events back.
  const { rows, head } = await services.store.readFeedPage({
    since: cursor.position,
    limit: SYNC_BATCH_MAX_EVENTS + 1,
    ...(await relayFilterFor(services, peerId)),
  });
  const batch: { sequence: number; text: string }[] = [];
  let bytes = 0;
  for (const row of rows) {
    if (batch.length === SYNC_BATCH_MAX_EVENTS) break;
    const size = Buffer.byteLength(row.text) + 1;
    if (batch.length > 0 && bytes + size > SYNC_BATCH_MAX_BYTES) break;
    batch.push(row);
    bytes += size;
  }
  // Nothing for this peer up to the head (the page is one snapshot): the cursor may stand there.
  if (batch.length === 0)
    return idle(cursor, {
      contacted: false,
      idleUntil: now,
      replayingHistory: false,
      position: Math.max(cursor.position, head),
    });
  const through = batch[batch.length - 1]!.sequence;
  // The batch names its range of our feed (as filtered for the peer), so the peer's pull from us starts
  // after it (receive-push.ts).
  const summary = await fed.client!.importEvents(
    baseUrl,
    batch.map((r) => r.text),
    { after: cursor.position, through },
  );
  settings.afterPushDelivered?.();
  // The peer took nothing: the batch began before its cursor (we sent it again, or its pull was first).
  // The next batch begins where it stands.
  const resend = Number(summary.resendFrom);
  if (Number.isSafeInteger(resend) && summary.resendFrom !== undefined) {
    const position = Math.max(cursor.position, Math.min(resend, head));
    return answered(summary as ImportSummary, {
      position,
      more: position < head,
      idleUntil: now,
      replayingHistory: false,
    });
  }
  // The peer's pull may have taken more than this batch already: no need to push that again.
  const pulled = Number(summary.pulledThrough);
  const skip = Number.isSafeInteger(pulled) && pulled > through ? Math.min(pulled, head) : through;
  return answered(summary as ImportSummary, {
    position: skip,
    more: rows.length > batch.length && skip < head,
    idleUntil: now,
    replayingHistory: false,
  });
}

async function pull(
  services: FederationOperationServices,
  peer: PeerView,
  cursor: SyncCursor,
  now: Date,
  settings: SyncSettings,
): Promise<SyncOutcome> {
  const fed = services.federation;
  const { peerId, baseUrl } = peer;
  // The peer's pushes arrive in order and move this cursor (receive-push.ts): fetching now would only
  // bring again what they deliver. Under load, pushes come further apart than a pull interval (a batch
  // takes that long to import on a busy host), so while the peer is pushing the pull waits
  // PUSH_QUIET_INTERVALS intervals after the last push, then looks for what pushes missed. A push that
  // shows a gap cleared pushedAt and made the pull due at once; silence ends the wait as before.
  const pushedUntil = (cursor.pushedAt?.getTime() ?? 0) + PUSH_QUIET_INTERVALS * settings.pullIntervalMs;
  if (pushedUntil > now.getTime())
    return idle(cursor, {
      contacted: false,
      idleUntil: new Date(pushedUntil),
      replayingHistory: cursor.replayingHistory,
    });
  const prefetch = prefetchOf(services);
  // Fetched, split, parsed and its signatures checked (prepare-page.ts): a page fetched ahead is made
  // ready as soon as it arrives, while the page before it is still being imported.
  const fetchPage = (since: number) => async () =>
    preparePage(
      services,
      peer,
      await fed.client!.exportEventsText(baseUrl, { since, limit: SYNC_BATCH_MAX_EVENTS }),
    );
  // The page the previous pull asked for ahead, if it starts where the cursor stands (page-prefetch.ts);
  // if that request failed, once more now.
  const ahead = prefetch.take(peerId, baseUrl, cursor.position, now.getTime());
  const page = ahead ? await ahead.catch(fetchPage(cursor.position)) : await fetchPage(cursor.position)();
  let previous = cursor.position;
  for (const e of page.events) {
    if (e.sequence <= previous)
      throw new DomainError(
        'federation.bad_export_page',
        'invalid',
        `the peer's export is not in increasing sequence order after ${cursor.position}`,
      );
    previous = e.sequence;
  }
  const idleUntil = new Date(now.getTime() + settings.pullIntervalMs);
  const replayingHistory = cursor.replayingHistory || pullMayReplayHistory(cursor.lastSuccessAt, now);
  // An empty page is the peer's whole feed up to its head for us (a relay's is filtered): stand there.
  if (page.events.length === 0)
    return idle(cursor, {
      contacted: true,
      idleUntil,
      peerHead: page.head,
      replayingHistory: false,
      position: page.hasMore ? cursor.position : Math.max(cursor.position, page.head),
    });
  // More waits after this page: ask for it now, so it travels while this one is imported.
  if (page.hasMore) prefetch.start(peerId, baseUrl, previous, now.getTime(), fetchPage(previous));
  // A push may have brought part of the page while it travelled (it moved the cursor): only what lies past
  // where the cursor stands now is imported, the rest would be duplicates.
  const settled = (await fed.cursors!.pulledThrough(peerId)) ?? cursor.position;
  const fresh = page.events.flatMap((e, i) => (e.sequence > settled ? [i] : []));
  const summary =
    fresh.length === 0
      ? { results: [], accepted: 0, duplicates: 0, rejected: 0 }
      : await importPage(
          services,
          peerId,
          fresh.map((i) => page.events[i]!.text),
          { allowHistorical: replayingHistory, parsed: fresh.map((i) => page.envelopes[i]) },
        );
  services.metrics?.imported?.('pull', summary);
  return answered(summary, {
    position: previous,
    more: page.hasMore,
    idleUntil,
    peerHead: page.head,
    // Still catching up: the rest of the backlog may be as old.
    replayingHistory: replayingHistory && page.hasMore,
  });
}

function idle(
  cursor: SyncCursor,
  o: { contacted: boolean; idleUntil: Date; peerHead?: number; replayingHistory: boolean; position?: number },
): SyncOutcome {
  return {
    kind: 'answered',
    contacted: o.contacted,
    position: o.position ?? cursor.position,
    accepted: 0,
    duplicates: 0,
    rejected: 0,
    rejection: null,
    more: false,
    idleUntil: o.idleUntil,
    replayingHistory: o.replayingHistory,
    ...(o.peerHead !== undefined && { peerHead: o.peerHead }),
  };
}

function answered(
  summary: Pick<ImportSummary, 'results' | 'accepted' | 'duplicates' | 'rejected'>,
  o: { position: number; more: boolean; idleUntil: Date; peerHead?: number; replayingHistory: boolean },
): SyncOutcome {
  const codes = new Map<string, number>();
  for (const r of summary.results)
    if (r.status === 'rejected') codes.set(r.code ?? 'unknown', (codes.get(r.code ?? 'unknown') ?? 0) + 1);
  return {
    kind: 'answered',
    contacted: true,
    position: o.position,
    accepted: summary.accepted,
    duplicates: summary.duplicates,
    rejected: summary.rejected,
    rejection: codes.size ? [...codes].map(([c, n]) => `${c} ×${n}`).join(', ') : null,
    more: o.more,
    idleUntil: o.idleUntil,
    replayingHistory: o.replayingHistory,
    ...(o.peerHead !== undefined && { peerHead: o.peerHead }),
  };
}
