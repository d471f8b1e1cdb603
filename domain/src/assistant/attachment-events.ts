// Pictures a person hands the assistant (docs/assistant.md#attachments): re-encoded without metadata,
// stored content-addressed in the blob store, recorded on `aattach-<attachmentId>`. A later chat message
// names them by id and the turn loop hands their bytes to a vision-capable model. Private to their owner:
// never on the feed, never federated.
import { z } from 'zod';
import { defineEvent, type EventDefinition } from '../shared/define-event.js';

/** The picture types an attachment can have: the type of the upload, decided from its bytes. */
export const ATTACHMENT_MEDIA_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const;
export type AttachmentMediaType = (typeof ATTACHMENT_MEDIA_TYPES)[number];

const SHA256_HEX = /^[0-9a-f]{64}$/;

export const attachmentAdded = defineEvent({
  type: 'assistant.attachment_added',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({
    attachmentId: z.string(),
    /** The agent the upload acted as: only it may reference or load the picture. */
    ownerAgentId: z.string(),
    mediaType: z.enum(ATTACHMENT_MEDIA_TYPES),
    width: z.number().int().positive(),
    height: z.number().int().positive(),
    /** Bytes stored (after re-encoding). */
    bytes: z.number().int().positive(),
    /** SHA-256 of the stored bytes, lower-case hex. */
    sha256: z.string().regex(SHA256_HEX),
    /** Where the blob store holds the bytes: the blob's name (today its SHA-256). */
    blobKey: z.string().regex(SHA256_HEX),
  }),
});

export const assistantAttachmentEvents = [attachmentAdded] as const satisfies readonly EventDefinition[];

export type AttachmentAddedData = z.infer<typeof attachmentAdded.data>;
