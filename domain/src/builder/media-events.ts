// The builder's media library: images an agent uploads, re-encoded without metadata and stored
// content-addressed. Media belongs to an agent (the owner), not to a site, so any of the owner's sites
// can use an item. Private: never on the feed, never federated (a published site carries the bytes it
// uses in its own manifest). Stream `media-<mediaId>`.
import { z } from 'zod';
import { defineEvent, type EventDefinition } from '../shared/define-event.js';

/** The image types a media item can have: the re-encoded output keeps the upload's type. */
export const MEDIA_CONTENT_TYPES = [
  'image/jpeg',
  'image/png',
  'image/webp',
  'image/gif',
  'image/avif',
] as const;
export type MediaContentType = (typeof MEDIA_CONTENT_TYPES)[number];

/** The file extension a type is served under (`/_media/<sha256>.<ext>`). */
export const MEDIA_EXTENSIONS: Readonly<Record<MediaContentType, string>> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'image/avif': 'avif',
};

/** Where a published site serves an item's bytes: by hash, so the URL can be cached forever. */
export const mediaPath = (sha256: string, contentType: MediaContentType) =>
  `/_media/${sha256}.${MEDIA_EXTENSIONS[contentType]}`;

/** Limits of what is recorded with an item; the upload limits are configuration (docs/builder.md#media). */
export const MEDIA_LIMITS = {
  /** The sanitized original filename, in characters. */
  filenameChars: 200,
  altChars: 300,
} as const;

export const mediaUploaded = defineEvent({
  type: 'media.uploaded',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({
    mediaId: z.string(),
    ownerAgentId: z.string(),
    /** SHA-256 of the stored (re-encoded) bytes, lower-case hex: the blob's name. */
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
    contentType: z.enum(MEDIA_CONTENT_TYPES),
    width: z.number().int().positive(),
    height: z.number().int().positive(),
    /** Bytes stored. */
    length: z.number().int().positive(),
    /** The upload's name, sanitized (`sanitizeMediaFilename`). */
    filename: z.string().min(1).max(MEDIA_LIMITS.filenameChars),
    alt: z.string().max(MEDIA_LIMITS.altChars).optional(),
  }),
});

export const mediaDeleted = defineEvent({
  type: 'media.deleted',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({ mediaId: z.string(), ownerAgentId: z.string() }),
});

export const builderMediaEvents = [mediaUploaded, mediaDeleted] as const satisfies readonly EventDefinition[];

export type MediaUploadedData = z.infer<typeof mediaUploaded.data>;
export type MediaDeletedData = z.infer<typeof mediaDeleted.data>;
