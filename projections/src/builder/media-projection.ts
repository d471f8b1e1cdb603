// Inline projection of media-<id> streams into rm_builder_media, in the append's own transaction: an
// upload answers the item as the read model holds it. Statements only, so an append stays one round
// trip. A deleted item's row goes; uploading the same bytes again brings it back under the same id.
import type { MediaDeletedData, MediaUploadedData } from '@tributary/domain';
import {
  runStatements,
  type ProjectedEvent,
  type Projection,
  type SqlStatement,
} from '../shared/projection.js';

function mediaStatements(e: ProjectedEvent): SqlStatement[] {
  // Media events are private and never federate; one arriving from a peer would describe its library.
  if (e.imported) return [];
  if (e.type === 'media.uploaded') {
    const d = e.data as MediaUploadedData;
    return [
      {
        text: `INSERT INTO rm_builder_media (media_id, owner_agent_id, sha256, content_type, width, height, length,
                 filename, alt, uploaded_at)
               VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
               ON CONFLICT (media_id) DO UPDATE SET sha256 = $3, content_type = $4, width = $5, height = $6,
                 length = $7, filename = $8, alt = $9, uploaded_at = $10`,
        values: [
          d.mediaId,
          d.ownerAgentId,
          d.sha256,
          d.contentType,
          d.width,
          d.height,
          d.length,
          d.filename,
          d.alt ?? null,
          e.occurredAt,
        ],
      },
    ];
  }
  const d = e.data as MediaDeletedData;
  return [{ text: `DELETE FROM rm_builder_media WHERE media_id = $1`, values: [d.mediaId] }];
}

export const builderMediaProjection: Projection = {
  name: 'builder-media',
  mode: 'inline',
  tables: ['rm_builder_media'],
  handles: ['media.uploaded', 'media.deleted'],
  statements: mediaStatements,
  apply: (db, e) => runStatements(db, mediaStatements(e)),
};
