// What the builder reads from its projections (rm_builder_*). Only this instance's own sites are here:
// events imported from peers (a federated `site.published`) are not folded into these tables.
import type { DraftDocument, ManifestEntry, SiteTheme } from '@tributary/domain';

export interface SiteView {
  siteId: string;
  ownerAgentId: string;
  title: string;
  /** The owner's default site: created on demand, listed first, one per owner. */
  isDefault: boolean;
  theme: SiteTheme;
  description: string;
  language: string;
  /** The draft's current revision (its stream version). */
  draftRevision: number;
  /** The version the site serves, or null before its first publish. */
  publishedVersionId: string | null;
  publishedAt: string | null;
  /** Set while an operator has the site suspended. */
  suspendedReason: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface DraftView {
  siteId: string;
  revision: number;
  document: DraftDocument;
  updatedAt: string;
}

export interface SiteVersionView {
  siteId: string;
  versionId: string;
  manifestHash: string;
  /** The draft revision rendered. */
  draftRevision: number;
  createdAt: string;
}

export interface SiteVersionWithManifest extends SiteVersionView {
  manifest: ManifestEntry[];
}

export interface BuilderReadModels {
  site(siteId: string): Promise<SiteView | null>;
  /** An owner's sites: the default one first, then the others oldest first. */
  sitesOf(ownerAgentId: string): Promise<SiteView[]>;
  draft(siteId: string): Promise<DraftView | null>;
  /**
   * A page of a site's versions, newest first; `before` is the `versionId` the previous page ended
   * with (unknown: an empty page).
   */
  versionsOf(
    siteId: string,
    page: { limit: number; before?: string | undefined },
  ): Promise<SiteVersionView[]>;
  /** One version of a site with its manifest (null when the site has no such version). */
  version(siteId: string, versionId: string): Promise<SiteVersionWithManifest | null>;
}
