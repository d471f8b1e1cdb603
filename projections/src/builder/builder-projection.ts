// Inline projection of the builder's core streams (site-<id>, draft-<id>) into rm_builder_sites,
// rm_builder_drafts and rm_builder_versions, in the append's own transaction: the next read of a site
// sees the write that just returned. Statements only (no reads), so an append stays one round trip.
// Events imported from a peer are not folded (no foldsImported): a federated site.published describes the
// peer's site, not one of ours (docs/builder.md#federation).
import { SITE_DEFAULTS, type BuilderEventData as EventData } from '@tributary/domain';
import {
  runStatements,
  type ProjectedEvent,
  type Projection,
  type SqlStatement,
} from '../shared/projection.js';

const SITE_PREFIX = 'site-';

/** The site a site-stream event is about: its stream names it (settings and versions carry no siteId). */
const siteOf = (e: ProjectedEvent) => e.stream.slice(SITE_PREFIX.length);

function builderStatements(e: ProjectedEvent): SqlStatement[] {
  switch (e.type) {
    case 'site.created': {
      const d = e.data as EventData<'site.created'>;
      return [
        {
          text: `INSERT INTO rm_builder_sites (site_id, owner_agent_id, title, is_default, theme, description, language,
                   created_at, updated_at)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8)`,
          values: [
            d.siteId,
            d.ownerAgentId,
            d.title,
            d.isDefault,
            SITE_DEFAULTS.theme,
            SITE_DEFAULTS.description,
            SITE_DEFAULTS.language,
            e.occurredAt,
          ],
        },
      ];
    }
    case 'site.settings_updated': {
      const d = e.data as EventData<'site.settings_updated'>;
      return [
        {
          // The two media settings may be cleared (null), so "not given" is told apart by a flag.
          text: `UPDATE rm_builder_sites SET title = COALESCE($2, title), theme = COALESCE($3, theme),
                   description = COALESCE($4, description), language = COALESCE($5, language), updated_at = $6,
                   social_image_id = CASE WHEN $7::boolean THEN $8 ELSE social_image_id END,
                   favicon_id = CASE WHEN $9::boolean THEN $10 ELSE favicon_id END
                 WHERE site_id = $1`,
          values: [
            siteOf(e),
            d.title ?? null,
            d.theme ?? null,
            d.description ?? null,
            d.language ?? null,
            e.occurredAt,
            d.socialImageId !== undefined,
            d.socialImageId ?? null,
            d.faviconId !== undefined,
            d.faviconId ?? null,
          ],
        },
      ];
    }
    case 'site.draft_saved': {
      const d = e.data as EventData<'site.draft_saved'>;
      return [
        {
          text: `INSERT INTO rm_builder_drafts (site_id, revision, document, updated_at) VALUES ($1, $2, $3, $4)
                 ON CONFLICT (site_id) DO UPDATE SET revision = EXCLUDED.revision, document = EXCLUDED.document,
                   updated_at = EXCLUDED.updated_at`,
          values: [d.siteId, e.streamVersion, JSON.stringify(d.document), e.occurredAt],
        },
        {
          text: `UPDATE rm_builder_sites SET draft_revision = $2, updated_at = $3 WHERE site_id = $1`,
          values: [d.siteId, e.streamVersion, e.occurredAt],
        },
      ];
    }
    case 'site.version_created': {
      const d = e.data as EventData<'site.version_created'>;
      return [
        {
          text: `INSERT INTO rm_builder_versions (site_id, version_id, seq, manifest_hash, manifest, draft_revision, created_at)
                 VALUES ($1, $2, $3, $4, $5, $6, $7)`,
          values: [
            siteOf(e),
            d.versionId,
            e.streamVersion,
            d.manifestHash,
            JSON.stringify(d.manifest),
            d.draftRevision,
            e.occurredAt,
          ],
        },
      ];
    }
    case 'site.published':
    case 'site.rolled_back': {
      const d = e.data as EventData<'site.published'>;
      return [
        {
          text: `UPDATE rm_builder_sites SET published_version_id = $2, published_at = $3, updated_at = $3
                 WHERE site_id = $1`,
          values: [siteOf(e), d.versionId, e.occurredAt],
        },
        // The first time a version was served, and by whom: previews create versions too, and this
        // tells them apart.
        {
          text: `UPDATE rm_builder_versions SET published_at = $3, published_by = $4
                 WHERE site_id = $1 AND version_id = $2 AND published_at IS NULL`,
          values: [siteOf(e), d.versionId, e.occurredAt, e.actorId],
        },
      ];
    }
    case 'site.publish_noted': {
      const d = e.data as EventData<'site.publish_noted'>;
      // The note of its first publish that had one: a version's line in the list keeps its story.
      return [
        {
          text: `UPDATE rm_builder_versions SET publish_note = $3
                 WHERE site_id = $1 AND version_id = $2 AND publish_note IS NULL`,
          values: [siteOf(e), d.versionId, d.note],
        },
      ];
    }
    case 'site.suspended': {
      const d = e.data as EventData<'site.suspended'>;
      return [
        {
          text: `UPDATE rm_builder_sites SET suspended_reason = $2, updated_at = $3 WHERE site_id = $1`,
          values: [siteOf(e), d.reason, e.occurredAt],
        },
      ];
    }
    case 'site.unsuspended':
      return [
        {
          text: `UPDATE rm_builder_sites SET suspended_reason = NULL, updated_at = $2 WHERE site_id = $1`,
          values: [siteOf(e), e.occurredAt],
        },
      ];
    default:
      return [];
  }
}

export const builderSitesProjection: Projection = {
  name: 'builder-sites',
  mode: 'inline',
  tables: ['rm_builder_sites', 'rm_builder_drafts', 'rm_builder_versions'],
  handles: [
    'site.created',
    'site.settings_updated',
    'site.draft_saved',
    'site.version_created',
    'site.published',
    'site.rolled_back',
    'site.publish_noted',
    'site.suspended',
    'site.unsuspended',
  ],
  statements: builderStatements,
  apply: (db, e) => runStatements(db, builderStatements(e)),
};
