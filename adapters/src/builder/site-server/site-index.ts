// The in-memory host index: claimed label → site, bound domain → site, site → its files. Every request
// is answered from these maps; the database is read only when a site changes (docs/builder.md#serving).
import type { ManifestEntry } from '@tributary/domain';
import type { ServedSite, SiteServingSource } from './served-site.js';

export interface IndexedSite {
  siteId: string;
  ownerAgentId: string;
  suspendedReason: string | null;
  versionId: string | null;
  /** URL path → file of the published version; empty before the first publish. */
  files: ReadonlyMap<string, ManifestEntry>;
}

export type HostMatch =
  | { kind: 'site'; site: IndexedSite }
  /** A name we answer for (an address under SITES_DOMAIN, a bound domain) without a site to serve. */
  | { kind: 'unknown' };

const NO_FILES: ReadonlyMap<string, ManifestEntry> = new Map();

function indexed(site: ServedSite): IndexedSite {
  return {
    siteId: site.siteId,
    ownerAgentId: site.ownerAgentId,
    suspendedReason: site.suspendedReason,
    versionId: site.publication?.versionId ?? null,
    files: site.publication ? new Map(site.publication.files.map((f) => [f.path, f])) : NO_FILES,
  };
}

export class SiteIndex {
  private readonly sites = new Map<string, IndexedSite>();
  private readonly byLabel = new Map<string, string>();
  /** Domain → site id, and whether it is verified (serving). */
  private readonly byDomain = new Map<string, { siteId: string; serving: boolean }>();
  /** What each site put in the label and domain maps, so a reload removes exactly that. */
  private readonly namesOf = new Map<string, { labels: readonly string[]; domains: readonly string[] }>();

  get size(): number {
    return this.sites.size;
  }

  get(siteId: string): IndexedSite | undefined {
    return this.sites.get(siteId);
  }

  bySiteLabel(label: string): IndexedSite | undefined {
    const siteId = this.byLabel.get(label);
    return siteId === undefined ? undefined : this.sites.get(siteId);
  }

  /** A bound domain: the site when it is verified; `unknown` when bound but not (or no longer) verified. */
  byBoundDomain(host: string): HostMatch | undefined {
    const bound = this.byDomain.get(host);
    if (!bound) return undefined;
    const site = bound.serving ? this.sites.get(bound.siteId) : undefined;
    return site ? { kind: 'site', site } : { kind: 'unknown' };
  }

  replaceAll(sites: readonly ServedSite[]): void {
    this.sites.clear();
    this.byLabel.clear();
    this.byDomain.clear();
    this.namesOf.clear();
    for (const s of sites) this.put(s);
  }

  /** Replaces one site's entry, or removes it (`null`: the site is gone or has nothing to serve). */
  replace(siteId: string, site: ServedSite | null): void {
    this.remove(siteId);
    if (site) this.put(site);
  }

  private remove(siteId: string): void {
    const names = this.namesOf.get(siteId);
    if (names) {
      for (const l of names.labels) if (this.byLabel.get(l) === siteId) this.byLabel.delete(l);
      for (const d of names.domains) if (this.byDomain.get(d)?.siteId === siteId) this.byDomain.delete(d);
    }
    this.namesOf.delete(siteId);
    this.sites.delete(siteId);
  }

  private put(site: ServedSite): void {
    this.sites.set(site.siteId, indexed(site));
    for (const l of site.labels) this.byLabel.set(l, site.siteId);
    for (const d of site.domains) this.byDomain.set(d.name, { siteId: site.siteId, serving: d.serving });
    this.namesOf.set(site.siteId, { labels: site.labels, domains: site.domains.map((d) => d.name) });
  }
}

/**
 * Keeps a SiteIndex fresh from a source. Changes queue up and are loaded one batch at a time, so a
 * slower, older load can never overwrite a newer one: each load starts after the change it answers.
 */
export class SiteIndexRefresher {
  private readonly dirty = new Set<string>();
  private everything = true;
  private running: Promise<void> | null = null;
  private unsubscribe: (() => Promise<void> | void) | null = null;
  private failures = 0;
  private retryTimer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(
    private readonly index: SiteIndex,
    private readonly source: SiteServingSource,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** Loads every site once and starts listening for changes. */
  async start(): Promise<void> {
    // Following changes first, then loading: a change committed in between is heard, not lost.
    this.unsubscribe = (await this.source.subscribe?.((siteId) => this.changed(siteId))) ?? null;
    await this.flush();
  }

  /** Marks a site (or, with null, every site) as changed and loads it soon. */
  changed(siteId: string | null): void {
    if (this.closed) return;
    if (siteId === null) this.everything = true;
    else this.dirty.add(siteId);
    void this.flush().catch(() => undefined);
  }

  /** Resolves once every change known so far is in the index. */
  async flush(): Promise<void> {
    while (this.running) await this.running;
    if (!this.everything && this.dirty.size === 0) return;
    this.running = this.loadPending().finally(() => {
      this.running = null;
    });
    await this.running;
  }

  private async loadPending(): Promise<void> {
    const everything = this.everything;
    const sites = [...this.dirty];
    this.everything = false;
    this.dirty.clear();
    try {
      if (everything) this.index.replaceAll(await this.source.all());
      else for (const id of sites) this.index.replace(id, await this.source.site(id));
      this.failures = 0;
    } catch (error) {
      // Keep serving what is known, and try the same changes again with backoff.
      if (everything) this.everything = true;
      for (const id of sites) this.dirty.add(id);
      this.failures++;
      this.onError(error);
      this.scheduleRetry();
      throw error;
    }
  }

  private scheduleRetry(): void {
    if (this.closed || this.retryTimer) return;
    const delay = Math.min(30_000, 250 * 2 ** Math.min(this.failures, 7));
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      void this.flush().catch(() => undefined);
    }, delay);
    this.retryTimer.unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    await this.unsubscribe?.();
    while (this.running) await this.running.catch(() => undefined);
  }
}
