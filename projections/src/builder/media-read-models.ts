// Query functions over rm_builder_media (and, for what is in use, the core's rm_builder_sites and
// rm_builder_versions); shapes match the services' MediaReadModels port.
import type { MediaContentType } from '@tributary/domain';
import { textArray, type Queryable } from '../shared/projection.js';

interface MediaRow {
  media_id: string;
  owner_agent_id: string;
  sha256: string;
  content_type: string;
  width: number;
  height: number;
  length: number;
  filename: string;
  alt: string | null;
  uploaded_at: Date;
}
const toMedia = (r: MediaRow) => ({
  mediaId: r.media_id,
  ownerAgentId: r.owner_agent_id,
  sha256: r.sha256,
  contentType: r.content_type as MediaContentType,
  width: r.width,
  height: r.height,
  length: r.length,
  filename: r.filename,
  alt: r.alt,
  uploadedAt: r.uploaded_at.toISOString(),
});

export function createMediaReadModels(db: Queryable) {
  return {
    async mediaItem(mediaId: string) {
      const { rows } = await db.query<MediaRow>('SELECT * FROM rm_builder_media WHERE media_id = $1', [
        mediaId,
      ]);
      return rows[0] ? toMedia(rows[0]) : null;
    },
    async mediaOf(ownerAgentId: string, page: { limit: number; before?: string | undefined }) {
      const { rows } = page.before
        ? await db.query<MediaRow>(
            `SELECT m.* FROM rm_builder_media m,
                    (SELECT uploaded_at, media_id FROM rm_builder_media WHERE media_id = $2 AND owner_agent_id = $1) b
              WHERE m.owner_agent_id = $1 AND (m.uploaded_at, m.media_id) < (b.uploaded_at, b.media_id)
              ORDER BY m.uploaded_at DESC, m.media_id DESC LIMIT $3`,
            [ownerAgentId, page.before, page.limit],
          )
        : await db.query<MediaRow>(
            `SELECT * FROM rm_builder_media WHERE owner_agent_id = $1
              ORDER BY uploaded_at DESC, media_id DESC LIMIT $2`,
            [ownerAgentId, page.limit],
          );
      return rows.map(toMedia);
    },
    async mediaHeld(ownerAgentId: string, mediaIds: readonly string[]) {
      if (mediaIds.length === 0) return [];
      const { rows } = await db.query<{ media_id: string }>(
        `SELECT media_id FROM rm_builder_media WHERE owner_agent_id = $1 AND media_id = ANY(${textArray(2)})
          ORDER BY media_id`,
        [ownerAgentId, JSON.stringify(mediaIds)],
      );
      return rows.map((r) => r.media_id);
    },
    async renderMedia(ownerAgentId: string, mediaIds: readonly string[]) {
      if (mediaIds.length === 0) return [];
      const { rows } = await db.query<MediaRow>(
        `SELECT * FROM rm_builder_media WHERE owner_agent_id = $1 AND media_id = ANY(${textArray(2)})`,
        [ownerAgentId, JSON.stringify(mediaIds)],
      );
      return rows.map(toMedia);
    },
    async sitesPublishingBytes(ownerAgentId: string, sha256: string) {
      // Containment on the manifest: some file of the published version has this hash.
      const { rows } = await db.query<{ site_id: string }>(
        `SELECT s.site_id FROM rm_builder_sites s
           JOIN rm_builder_versions v ON v.site_id = s.site_id AND v.version_id = s.published_version_id
          WHERE s.owner_agent_id = $1 AND v.manifest @> jsonb_build_array(jsonb_build_object('sha256', $2::text))
          ORDER BY s.site_id`,
        [ownerAgentId, sha256],
      );
      return rows.map((r) => r.site_id);
    },
  };
}
