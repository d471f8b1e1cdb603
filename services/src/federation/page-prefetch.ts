// The next page of a peer's export, fetched while the page before it is being imported: a catch-up then
// waits for the peer only once, not once per page (on loopback a tenth of each page, docs/federation.md;
// across a real network the wait is the round trip and the transfer, often most of a page's time).
//
// A prefetched page is only ever used by the pull whose cursor stands exactly where that page starts,
// from the same base URL, while it is fresh; anything else is dropped and fetched anew. The export is a
// pure read, so a page fetched and never used changed nothing at the peer. At most one page per peer is
// held, so memory stays flat however far behind the pull is.

/** A page requested ahead of its pull (its text, or what the pull makes of it: prepare-page.ts). */
interface Prefetched<T> {
  baseUrl: string;
  since: number;
  requestedAt: number;
  page: Promise<T>;
}

/** Older than this, a prefetched page is not used (the next pull may be a week of backoff away). */
export const PREFETCH_MAX_AGE_MS = 30_000;

export interface PagePrefetch<T = string> {
  /** Starts fetching the page after `since`, replacing any page held for this peer. */
  start(peerId: string, baseUrl: string, since: number, now: number, readPage: () => Promise<T>): void;
  /** The page held for this pull, if it matches exactly and is fresh; it is given out once. */
  take(peerId: string, baseUrl: string, since: number, now: number): Promise<T> | undefined;
}

export function createPagePrefetch<T = string>(maxAgeMs = PREFETCH_MAX_AGE_MS): PagePrefetch<T> {
  const held = new Map<string, Prefetched<T>>();
  return {
    start(peerId, baseUrl, since, now, readPage) {
      const page = readPage();
      // A failure is the next pull's to report (it fetches again); until then nobody awaits it.
      page.catch(() => undefined);
      held.set(peerId, { baseUrl, since, requestedAt: now, page });
    },
    take(peerId, baseUrl, since, now) {
      // Stale pages of any peer go too, so a peer no longer pulled holds nothing for long.
      for (const [id, p] of held) if (now - p.requestedAt > maxAgeMs) held.delete(id);
      const p = held.get(peerId);
      if (!p) return undefined;
      held.delete(peerId);
      return p.baseUrl === baseUrl && p.since === since ? p.page : undefined;
    },
  };
}
