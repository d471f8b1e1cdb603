// The shapes the media operations answer with.
import { MEDIA_CONTENT_TYPES } from '@tributary/domain';
import { z } from 'zod';
import type { MediaView } from './ports/builder-media-read-models.js';

export const mediaOutput = z.object({
  mediaId: z.string(),
  ownerAgentId: z.string(),
  sha256: z
    .string()
    .describe('SHA-256 of the stored bytes; a published site serves them at /_media/<sha256>.<ext>'),
  contentType: z.enum(MEDIA_CONTENT_TYPES),
  width: z.number().int(),
  height: z.number().int(),
  length: z.number().int().describe('bytes stored'),
  filename: z.string(),
  alt: z.string().nullable(),
  uploadedAt: z.string(),
});

export const toMediaOutput = (m: MediaView): z.infer<typeof mediaOutput> => ({
  mediaId: m.mediaId,
  ownerAgentId: m.ownerAgentId,
  sha256: m.sha256,
  contentType: m.contentType,
  width: m.width,
  height: m.height,
  length: m.length,
  filename: m.filename,
  alt: m.alt,
  uploadedAt: m.uploadedAt,
});
