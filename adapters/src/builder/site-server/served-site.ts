// What the site server knows of one site: enough to answer any request for it from memory.
import type { ManifestEntry } from '@tributary/domain';

export interface ServedSite {
  siteId: string;
  ownerAgentId: string;
  /** Claimed addresses: the site answers at `<label>.<SITES_DOMAIN>` and `/sites/<label>/`. */
  labels: readonly string[];
  /**
   * Custom domains bound to the site (lower-case, no trailing dot). Only `serving` ones answer with the
   * site; the others (pending, failed, TXT record gone) answer the plain 404 page, never the application.
   */
  domains: readonly { name: string; serving: boolean }[];
  /** Set while an operator has the site suspended: every address answers 451 with this reason. */
  suspendedReason: string | null;
  /** The version the publication pointer names, or null before the first publish. */
  publication: { versionId: string; manifestHash: string; files: readonly ManifestEntry[] } | null;
}

/**
 * Where the site server loads sites from (the builder's read models) and learns that they changed
 * (docs/builder.md#serving). `subscribe` resolves once it is following changes — so a load started after
 * it misses none — and its callback gets a site id, or null when anything may have changed (after a lost
 * connection); it resolves to the function that stops it.
 */
export interface SiteServingSource {
  all(): Promise<ServedSite[]>;
  site(siteId: string): Promise<ServedSite | null>;
  subscribe?(onChange: (siteId: string | null) => void): Promise<() => Promise<void> | void>;
}
