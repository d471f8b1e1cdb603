import {
  decideUploadMedia,
  domainError,
  mediaTooLargeMessage,
  mediaIdFor,
  mediaIdSeed,
  mediaStream,
  sanitizeMediaAlt,
  sanitizeMediaFilename,
  type MediaState,
} from '@tributary/domain';
import { z } from 'zod';
import { defineBuilderOperation, type BuilderOperationContext } from './builder-operation.js';
import { targetAgentId } from '../shared/schemas.js';
import { mediaOutput, toMediaOutput } from './media-schemas.js';

/** The most BUILDER_MEDIA_MAX_BYTES may be set to; the instance's own limit is usually lower. */
export const MEDIA_MAX_BYTES_CEILING = 50 * 1024 * 1024;
/** Characters of base64 that can carry `bytes` bytes. */
export const base64Length = (bytes: number) => 4 * Math.ceil(bytes / 3);
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Bytes a well-formed base64 text decodes to, without decoding it. */
const decodedLength = (b64: string) =>
  (b64.length / 4) * 3 - (b64.endsWith('==') ? 2 : b64.endsWith('=') ? 1 : 0);

export const uploadMedia = defineBuilderOperation({
  name: 'svc.builder.upload_media',
  title: 'Upload an image',
  description:
    'Adds an image to the owner’s media library, for image and gallery blocks of any of their sites. The ' +
    'type is decided from the bytes (JPEG, PNG, WebP, GIF, AVIF, and HEIC/HEIF stored as JPEG; never ' +
    'SVG), a picture with a side over BUILDER_MEDIA_LONG_EDGE (4096 px by default) is scaled down to it, ' +
    'the image is re-encoded with all metadata (EXIF, GPS, …) dropped, and stored once per content: uploading the same ' +
    'image again answers the item already there (`created: false`). Over MCP the bytes travel as ' +
    'base64; the REST route POST /api/builder/media takes multipart/form-data.',
  kind: 'command',
  scopes: ['svc.builder.write'],
  enabledFor: ['session', 'token'],
  input: z.strictObject({
    targetAgentId,
    content: z
      .string()
      .max(base64Length(MEDIA_MAX_BYTES_CEILING))
      .refine((s) => s.length % 4 === 0 && BASE64.test(s), 'standard base64, padded, no line breaks')
      .describe('the image file, base64 (at most BUILDER_MEDIA_MAX_BYTES once decoded; 10 MiB by default)'),
    filename: z
      .string()
      .max(1000)
      .optional()
      .describe('the file’s name, recorded without path parts or control characters, at most 200 characters'),
    alt: z.string().max(1000).optional().describe('alt text describing the image, at most 300 characters'),
  }),
  output: z.object({
    media: mediaOutput,
    created: z.boolean().describe('false when the owner already held these bytes: the item already there'),
  }),
  async run(ctx, input) {
    const { media: processor, blobs } = ctx.services.builder;
    const size = decodedLength(input.content);
    if (size > processor.limits.maxBytes)
      throw domainError(
        'builder.media_too_large',
        'too_large',
        mediaTooLargeMessage(processor.limits.maxBytes, size),
        { maxBytes: processor.limits.maxBytes, bytes: size },
      );
    const image = await processor.process(Buffer.from(input.content, 'base64'));
    // Stored before the event that names it, so an item never points at bytes that are not there; a
    // refusal above stores nothing, and the same bytes stored again are a no-op.
    const { sha256, length } = await blobs.put(image.bytes);
    const owner = ctx.actor.agentId;
    const mediaId = mediaIdFor(ctx.services.ids.sha256(mediaIdSeed(owner, sha256)));
    const stream = mediaStream(mediaId);
    const cmd = {
      mediaId,
      ownerAgentId: owner,
      sha256,
      contentType: image.contentType,
      width: image.width,
      height: image.height,
      length,
      filename: sanitizeMediaFilename(input.filename),
      alt: sanitizeMediaAlt(input.alt),
    };
    // The same bytes uploaded twice at once by the same owner: the retry sees the other's item and
    // records nothing.
    const { events } = await ctx.commit(
      [stream],
      (s) => decideUploadMedia(cmd, s.get(stream) as MediaState),
      {
        retries: 3,
      },
    );
    const created = events.length > 0;
    return { media: toMediaOutput(await itemOf(ctx, mediaId)), created };
  },
});

async function itemOf(ctx: BuilderOperationContext, mediaId: string) {
  const item = await ctx.services.builder.read.mediaItem(mediaId);
  if (!item) throw new Error('media item missing from its inline projection after commit');
  return item;
}
