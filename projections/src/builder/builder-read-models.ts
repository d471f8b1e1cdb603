// Query functions over rm_builder_sites, rm_builder_drafts, rm_builder_versions and rm_builder_history;
// shapes match the services' BuilderReadModels port.
import type { DraftDocument, ManifestEntry, SiteTheme } from '@tributary/domain';
import type { Queryable } from '../shared/projection.js';
import { iso } from '../shared/iso.js';

interface SiteRow {
  site_id: string;
  owner_agent_id: string;
  title: string;
  is_default: boolean;
  theme: string;
  description: string;
  language: string;
  social_image_id: string | null;
  favicon_id: string | null;
  draft_revision: number;
  published_version_id: string | null;
  published_at: Date | null;
  suspended_reason: string | null;
  created_at: Date;
  updated_at: Date;
}
const toSite = (r: SiteRow) => ({
  siteId: r.site_id,
  ownerAgentId: r.owner_agent_id,
  title: r.title,
  isDefault: r.is_default,
  theme: r.theme as SiteTheme,
  description: r.description,
  language: r.language,
  socialImageId: r.social_image_id,
  faviconId: r.favicon_id,
  draftRevision: r.draft_revision,
  publishedVersionId: r.published_version_id,
  publishedAt: iso(r.published_at),
  suspendedReason: r.suspended_reason,
  createdAt: r.created_at.toISOString(),
  updatedAt: r.updated_at.toISOString(),
});

interface HistoryRow {
  seq: number;
  action: 'published' | 'rolled_back' | 'restored' | 'suspended' | 'unsuspended';
  version_id: string | null;
  replaced_version_id: string | null;
  actor_id: string;
  at: Date;
  version_published_at: Date | null;
  replaced_published_at: Date | null;
  draft_revision: number | null;
  reason: string | null;
}
const toHistoryEntry = (r: HistoryRow) => ({
  seq: r.seq,
  action: r.action,
  versionId: r.version_id,
  versionPublishedAt: iso(r.version_published_at),
  replacedVersionId: r.replaced_version_id,
  replacedVersionPublishedAt: iso(r.replaced_published_at),
  actorId: r.actor_id,
  at: r.at.toISOString(),
  draftRevision: r.draft_revision,
  reason: r.reason,
});
// The versions' first publish times come from rm_builder_versions: a history row names versions only.
const HISTORY_SELECT_COLUMNS = `SELECT h.seq, h.action, h.version_id, h.replaced_version_id, h.actor_id, h.at, h.draft_revision,
       h.reason, v.published_at AS version_published_at, r.published_at AS replaced_published_at`;
const HISTORY_SELECT = `${HISTORY_SELECT_COLUMNS}
   FROM rm_builder_history h
   LEFT JOIN rm_builder_versions v ON v.site_id = h.site_id AND v.version_id = h.version_id
   LEFT JOIN rm_builder_versions r ON r.site_id = h.site_id AND r.version_id = h.replaced_version_id`;

interface VersionRow {
  site_id: string;
  version_id: string;
  manifest_hash: string;
  draft_revision: number;
  created_at: Date;
  published_at: Date | null;
  published_by: string | null;
  publish_note: string | null;
  manifest?: ManifestEntry[];
}
const toVersion = (r: VersionRow) => ({
  siteId: r.site_id,
  versionId: r.version_id,
  manifestHash: r.manifest_hash,
  draftRevision: r.draft_revision,
  createdAt: r.created_at.toISOString(),
  publishedAt: r.published_at ? r.published_at.toISOString() : null,
  publishedBy: r.published_by,
  note: r.publish_note,
});
const VERSION_COLUMNS =
  'site_id, version_id, manifest_hash, draft_revision, created_at, published_at, published_by, publish_note';

export function createBuilderReadModels(db: Queryable) {
  return {
    async site(siteId: string) {
      const { rows } = await db.query<SiteRow>('SELECT * FROM rm_builder_sites WHERE site_id = $1', [siteId]);
      return rows[0] ? toSite(rows[0]) : null;
    },
    async sitesOf(ownerAgentId: string) {
      const { rows } = await db.query<SiteRow>(
        `SELECT * FROM rm_builder_sites WHERE owner_agent_id = $1 ORDER BY is_default DESC, created_at, site_id`,
        [ownerAgentId],
      );
      return rows.map(toSite);
    },
    async suspendedSites(page: { limit: number; after?: string | undefined }) {
      // When: the latest site.suspended event of the site's stream (a new reason re-suspends).
      const { rows } = await db.query<{
        site_id: string;
        owner_agent_id: string;
        title: string;
        suspended_reason: string;
        suspended_at: Date | null;
        updated_at: Date;
      }>(
        `SELECT s.site_id, s.owner_agent_id, s.title, s.suspended_reason, s.updated_at,
                (SELECT max(e.occurred_at) FROM events e
                  WHERE e.stream = 'site-' || s.site_id AND e.type = 'site.suspended') AS suspended_at
           FROM rm_builder_sites s
          WHERE s.suspended_reason IS NOT NULL AND ($1::text IS NULL OR s.site_id > $1)
          ORDER BY s.site_id
          LIMIT $2`,
        [page.after ?? null, page.limit],
      );
      return rows.map((r) => ({
        siteId: r.site_id,
        ownerAgentId: r.owner_agent_id,
        title: r.title,
        reason: r.suspended_reason,
        suspendedAt: (r.suspended_at ?? r.updated_at).toISOString(),
      }));
    },
    async draft(siteId: string) {
      const { rows } = await db.query<{
        site_id: string;
        revision: number;
        document: DraftDocument;
        updated_at: Date;
      }>('SELECT * FROM rm_builder_drafts WHERE site_id = $1', [siteId]);
      const r = rows[0];
      return r
        ? {
            siteId: r.site_id,
            revision: r.revision,
            document: r.document,
            updatedAt: r.updated_at.toISOString(),
          }
        : null;
    },
    async versionsOf(
      siteId: string,
      page: { limit: number; before?: string | undefined; publishedOnly?: boolean | undefined },
    ) {
      // An unknown `before` matches no row, so its page is empty rather than the first one again.
      const { rows } = await db.query<VersionRow>(
        `SELECT ${VERSION_COLUMNS} FROM rm_builder_versions
         WHERE site_id = $1 AND ($4::boolean IS NOT TRUE OR published_at IS NOT NULL)
           AND ($2::text IS NULL OR seq < (SELECT seq FROM rm_builder_versions WHERE site_id = $1 AND version_id = $2))
         ORDER BY seq DESC LIMIT $3`,
        [siteId, page.before ?? null, page.limit, page.publishedOnly ?? false],
      );
      return rows.map(toVersion);
    },
    async historyOf(
      siteId: string,
      page: { limit: number; before?: number | undefined; restoresOf?: string | undefined },
    ) {
      // Only one version's restores: read through the restores' own index, not the whole history.
      const restores = page.restoresOf === undefined ? '' : `AND h.action = 'restored' AND h.version_id = $4`;
      const { rows } = await db.query<HistoryRow>(
        `${HISTORY_SELECT}
          WHERE h.site_id = $1 AND ($2::integer IS NULL OR h.seq < $2) ${restores}
          ORDER BY h.seq DESC LIMIT $3`,
        [
          siteId,
          page.before ?? null,
          page.limit,
          ...(page.restoresOf === undefined ? [] : [page.restoresOf]),
        ],
      );
      return rows.map(toHistoryEntry);
    },
    async restoreSaving(siteId: string, draftRevision: number) {
      const { rows } = await db.query<HistoryRow>(
        `${HISTORY_SELECT}
          WHERE h.site_id = $1 AND h.action = 'restored' AND h.draft_revision = $2
          ORDER BY h.seq DESC LIMIT 1`,
        [siteId, draftRevision],
      );
      return rows[0] ? toHistoryEntry(rows[0]) : null;
    },
    async lastRollbackBack(siteId: string) {
      // Rollbacks newest first, through their own index; first-publish times compared to the millisecond,
      // as the events keep them, and on a tie the older draft revision is the earlier version. The
      // versions named since (the rollback's own row included) are gathered in the same statement.
      const { rows } = await db.query<
        HistoryRow & { replaced_draft_revision: number; revisions_since: number[] }
      >(
        `${HISTORY_SELECT_COLUMNS}, r.draft_revision AS replaced_draft_revision,
                ARRAY(SELECT DISTINCT sv.draft_revision
                        FROM rm_builder_history sh
                        JOIN rm_builder_versions sv ON sv.site_id = sh.site_id AND sv.version_id = sh.version_id
                       WHERE sh.site_id = h.site_id AND sh.seq >= h.seq
                       ORDER BY sv.draft_revision) AS revisions_since
           FROM rm_builder_history h
           JOIN rm_builder_versions v ON v.site_id = h.site_id AND v.version_id = h.version_id
           JOIN rm_builder_versions r ON r.site_id = h.site_id AND r.version_id = h.replaced_version_id
          WHERE h.site_id = $1 AND h.action = 'rolled_back'
            AND (date_trunc('milliseconds', v.published_at), v.draft_revision)
              < (date_trunc('milliseconds', r.published_at), r.draft_revision)
          ORDER BY h.seq DESC LIMIT 1`,
        [siteId],
      );
      const r = rows[0];
      return r
        ? {
            entry: toHistoryEntry(r),
            replacedDraftRevision: r.replaced_draft_revision,
            draftRevisionsSince: r.revisions_since,
          }
        : null;
    },
    async version(siteId: string, versionId: string) {
      const { rows } = await db.query<VersionRow & { manifest: ManifestEntry[] }>(
        `SELECT ${VERSION_COLUMNS}, manifest FROM rm_builder_versions WHERE site_id = $1 AND version_id = $2`,
        [siteId, versionId],
      );
      const r = rows[0];
      return r ? { ...toVersion(r), manifest: r.manifest } : null;
    },
  };
}
