// Inline projection of aattach-<id> streams into rm_assistant_attachments, in the append's own
// transaction: the turn loop reads an attachment the moment its upload answered. Statements only, so an
// append stays one round trip.
import type { AttachmentAddedData } from '@tributary/domain';
import {
  runStatements,
  type ProjectedEvent,
  type Projection,
  type SqlStatement,
} from '../shared/projection.js';

function attachmentStatements(e: ProjectedEvent): SqlStatement[] {
  // Attachments are private and never federate; one arriving from a peer would describe someone else's.
  if (e.imported) return [];
  const d = e.data as AttachmentAddedData;
  return [
    {
      text: `INSERT INTO rm_assistant_attachments (attachment_id, owner_agent_id, media_type, width, height, bytes,
               sha256, blob_key, added_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
             ON CONFLICT (attachment_id) DO NOTHING`,
      values: [
        d.attachmentId,
        d.ownerAgentId,
        d.mediaType,
        d.width,
        d.height,
        d.bytes,
        d.sha256,
        d.blobKey,
        e.occurredAt,
      ],
    },
  ];
}

export const assistantAttachmentsProjection: Projection = {
  name: 'assistant-attachments',
  mode: 'inline',
  tables: ['rm_assistant_attachments'],
  handles: ['assistant.attachment_added'],
  statements: attachmentStatements,
  apply: (db, e) => runStatements(db, attachmentStatements(e)),
};
