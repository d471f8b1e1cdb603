// Gaps a relay left in a relayed origin's chain (docs/federation.md#relay), settled by asking the origin
// itself: its public events of that stream in the gap go through the import as events fetched from
// their origin; what it does not show there was private.
import { DomainError, isDomainError, retryDelayMs } from '@tributary/domain';
import { importFetched } from './import/import-events.js';
import type { FederationOperationServices } from './federation-operation.js';
import type { RelayGap } from './ports/federation.js';

/** At most this many gaps are worked on per sweep. */
const GAPS_PER_SWEEP = 20;
/** The origin's public query answers at most this many events per page. */
const QUERY_PAGE = 100;
/** At most this many pages of one stream are read to fill one gap. */
const QUERY_MAX_PAGES = 50;

/**
 * Fills the open gaps that are due: for each, the origin's own public events of that stream (its public
 * query, through the outbound client) go through the import as events fetched from their origin. What
 * the origin does not show in the range was private: the gap is closed either way once it answered.
 */
export async function fillDueGaps(
  services: FederationOperationServices,
  settings: { retryBaseMs: number },
): Promise<number> {
  const fed = services.federation;
  if (!fed.manifests) return 0;
  const now = services.clock.now();
  const due = await fed.store.gaps({ due: now, limit: GAPS_PER_SWEEP });
  let settled = 0;
  for (const gap of due) {
    try {
      await fillGap(services, gap);
      settled++;
    } catch (e) {
      const retryAt = new Date(
        now.getTime() + retryDelayMs(gap.attempts + 1, Math.random(), { baseMs: settings.retryBaseMs }),
      );
      await fed.store.settleGap(gap, {
        state: 'open',
        at: now,
        error: isDomainError(e) ? `${e.code}: ${e.message}` : String((e as Error).message ?? e),
        retryAt,
      });
    }
  }
  return settled;
}

async function fillGap(services: FederationOperationServices, gap: RelayGap): Promise<void> {
  const fed = services.federation;
  const origin = await fed.read.relayOrigin(gap.origin);
  if (!origin)
    throw new DomainError(
      'federation.origin_key_unknown',
      'invalid',
      `the address of ${gap.origin} is unknown`,
    );
  const texts: string[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < QUERY_MAX_PAGES; page++) {
    const url = new URL(`${origin.baseUrl.replace(/\/+$/, '')}/api/federation/query`);
    url.searchParams.set('resource', 'events');
    url.searchParams.set('stream', gap.stream);
    url.searchParams.set('limit', String(QUERY_PAGE));
    if (cursor) url.searchParams.set('cursor', cursor);
    const answer = await fed.manifests!.getJson(url.toString());
    const { items, next } = answer as { items?: { event?: unknown }[]; next?: string | null };
    if (!Array.isArray(items))
      throw new DomainError(
        'federation.bad_export_page',
        'invalid',
        'the origin’s query answer has no items',
      );
    for (const item of items) {
      const e = item.event as { streamVersion?: unknown; origin?: unknown } | undefined;
      if (
        e &&
        e.origin === gap.origin &&
        typeof e.streamVersion === 'number' &&
        e.streamVersion >= gap.fromVersion &&
        e.streamVersion <= gap.toVersion
      )
        // The origin stores its envelopes as their RFC 8785 text, which JSON.stringify writes back byte for
        // byte; another spelling would still verify (the signature covers the canonical form).
        texts.push(JSON.stringify(e));
    }
    cursor = typeof next === 'string' ? next : null;
    if (!cursor) break;
  }
  const summary = texts.length > 0 ? await importFetched(services, gap.origin, texts) : null;
  const now = services.clock.now();
  await fed.store.settleGap(gap, {
    state: summary && summary.accepted + summary.duplicates > 0 ? 'filled' : 'not_public',
    at: now,
  });
}
