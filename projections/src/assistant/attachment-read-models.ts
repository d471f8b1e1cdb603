// Query functions over rm_assistant_attachments; shapes match the services' AttachmentReadModels port.
import type { AttachmentMediaType } from '@tributary/domain';
import type { Queryable } from '../shared/projection.js';

interface AttachmentRow {
  attachment_id: string;
  owner_agent_id: string;
  media_type: string;
  width: number;
  height: number;
  bytes: number;
  sha256: string;
  blob_key: string;
  added_at: Date;
}

export function createAttachmentReadModels(db: Queryable) {
  return {
    async attachment(attachmentId: string) {
      const { rows } = await db.query<AttachmentRow>(
        'SELECT * FROM rm_assistant_attachments WHERE attachment_id = $1',
        [attachmentId],
      );
      const r = rows[0];
      return r
        ? {
            attachmentId: r.attachment_id,
            ownerAgentId: r.owner_agent_id,
            mediaType: r.media_type as AttachmentMediaType,
            width: r.width,
            height: r.height,
            bytes: r.bytes,
            sha256: r.sha256,
            blobKey: r.blob_key,
            addedAt: r.added_at.toISOString(),
          }
        : null;
    },
  };
}
