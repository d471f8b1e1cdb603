// What the builder reads from its projections (rm_builder_*). Only this instance's own sites are here:
// events imported from peers (a federated `site.published`) are not folded into these tables.
import type { MediaReadModels } from './builder-media-read-models.js';
import type {
  DomainCheckReason,
  DomainState,
  DraftDocument,
  ManifestEntry,
  SiteTheme,
} from '@tributary/domain';
import type { SiteAddressReadModels } from './site-addresses.js';
import type { FormReadModels } from './form-read-models.js';

export interface SuspendedSiteView {
  siteId: string;
  ownerAgentId: string;
  title: string;
  reason: string;
  suspendedAt: string;
}

export interface SiteView {
  siteId: string;
  ownerAgentId: string;
  title: string;
  /** The owner's default site: created on demand, listed first, one per owner. */
  isDefault: boolean;
  theme: SiteTheme;
  description: string;
  language: string;
  /** The media item shown when a page is shared (og:image), or null. */
  socialImageId: string | null;
  /** The media item used as the browser tab's icon, or null. */
  faviconId: string | null;
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
  /** When it was first served (published or rolled back to); null for a version never live (a preview). */
  publishedAt: string | null;
  /** The agent who first served it (null for a preview). */
  publishedBy: string | null;
  /** The note given when it was published (`site.publish_noted`), if any. */
  note: string | null;
}

/**
 * One change in a site's history (rm_builder_history): a publish or a rollback changed what is live; a
 * restore put a published version's content back into the draft and left what is live as it was; an
 * operator suspended the site (or gave its suspension a new reason) or lifted the suspension.
 */
export interface SiteHistoryEntryView {
  /** The site stream's version of the event: the history's order, and where a page ends. */
  seq: number;
  action: SiteHistoryAction;
  /**
   * The version that went live (publish, rollback) or into the draft (restore); null for a suspension
   * and its lifting, which concern no version.
   */
  versionId: string | null;
  /** When that version was first published (null only if the versions table lacks it, or no version). */
  versionPublishedAt: string | null;
  /** The version live until then (publish, rollback); null for a site's first publish and the others. */
  replacedVersionId: string | null;
  replacedVersionPublishedAt: string | null;
  /** The agent who did it (for a suspension, the operator). */
  actorId: string;
  at: string;
  /** A restore's draft revision (the one it saved, holding the version's content); null otherwise. */
  draftRevision: number | null;
  /** A suspension's reason, as the operator gave it; null otherwise. */
  reason: string | null;
}

/** A rollback that went back, and the versions put online or into the draft since (lastRollbackBack). */
export interface RollbackBackView {
  entry: SiteHistoryEntryView;
  /** The draft revision the version it replaced was made from. */
  replacedDraftRevision: number;
  /**
   * The draft revisions of the versions put online or into the draft since, the rollback's own target
   * included: each once, oldest first.
   */
  draftRevisionsSince: number[];
}

export type SiteHistoryAction = 'published' | 'rolled_back' | 'restored' | 'suspended' | 'unsuspended';

export interface SiteVersionWithManifest extends SiteVersionView {
  manifest: ManifestEntry[];
}

/** A custom-domain binding (rm_builder_domains): only `verified` ones are served. */
export interface DomainBindingView {
  domain: string;
  siteId: string;
  ownerAgentId: string;
  provider: string;
  state: DomainState;
  /** Why the last check did not verify (null once one does). */
  reason: DomainCheckReason | null;
  detail: string | null;
  /** The value the challenge TXT record must hold; shown only to the owner. */
  challengeToken: string;
  boundAt: string;
  checkedAt: string | null;
  verifiedAt: string | null;
}

export interface DomainBindingFilter {
  ownerAgentId?: string | undefined;
  siteId?: string | undefined;
  /** Paging by name: bindings whose domain sorts after this one. */
  after?: string | undefined;
  limit?: number | undefined;
}

/** With the media's and the addresses' reads (builder-media-read-models.ts, site-addresses.ts). */
export interface BuilderReadModels extends MediaReadModels, SiteAddressReadModels, FormReadModels {
  /** The binding of a domain (lower-case, no trailing dot), whatever its state. */
  domainBinding(domain: string): Promise<DomainBindingView | null>;
  /** Bindings by domain name, filtered by owner and site. */
  domainBindings(filter: DomainBindingFilter): Promise<DomainBindingView[]>;
  site(siteId: string): Promise<SiteView | null>;
  /** An owner's sites: the default one first, then the others oldest first. */
  sitesOf(ownerAgentId: string): Promise<SiteView[]>;
  /**
   * The suspended sites of every owner, by site id; `after` is the `siteId` the previous page ended
   * with. `suspendedAt` is when the current suspension (or its latest reason) was recorded.
   */
  suspendedSites(page: { limit: number; after?: string | undefined }): Promise<SuspendedSiteView[]>;
  draft(siteId: string): Promise<DraftView | null>;
  /**
   * A page of a site's versions, newest first; `before` is the `versionId` the previous page ended
   * with (unknown: an empty page). `publishedOnly`: only versions the site once served (no previews).
   */
  versionsOf(
    siteId: string,
    page: { limit: number; before?: string | undefined; publishedOnly?: boolean | undefined },
  ): Promise<SiteVersionView[]>;
  /**
   * A page of a site's history, newest first: every publish, rollback, restore, suspension and lifting
   * of one. `before` is the `seq` the previous page ended with.
   */
  historyOf(
    siteId: string,
    page: {
      limit: number;
      before?: number | undefined;
      /** Only the restores of this version into the draft (one indexed read, however long the history). */
      restoresOf?: string | undefined;
    },
  ): Promise<SiteHistoryEntryView[]>;
  /**
   * The restore that saved draft revision `draftRevision` of the site (the newest, should there be two),
   * or null when that revision was not a restore: one indexed read, however long the history.
   */
  restoreSaving(siteId: string, draftRevision: number): Promise<SiteHistoryEntryView | null>;
  /**
   * The site's newest rollback that went back — to a version first published before the one it
   * replaced; on equal first-publish times (to the millisecond), the one made from the older draft
   * revision is the earlier — with what draftHoldsRolledBack needs of the history since: one read,
   * however long the history. Null when no rollback went back.
   */
  lastRollbackBack(siteId: string): Promise<RollbackBackView | null>;
  /** One version of a site with its manifest (null when the site has no such version). */
  version(siteId: string, versionId: string): Promise<SiteVersionWithManifest | null>;
}
