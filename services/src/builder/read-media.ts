// svc.builder.read_media: one item of the owner's media library; and the thumbnail of one, which the
// thumbnail route (GET /api/builder/media/thumbnail) serves after this operation has said the caller
// may see the item (docs/builder.md#media).
import { notFound, uuidSchema } from '@tributary/domain';
import { z } from 'zod';
import { defineBuilderOperation } from './builder-operation.js';
import type { BuilderOperationServices } from './builder-operation.js';
import { targetAgentId } from '../shared/schemas.js';
import { mediaOutput, toMediaOutput } from './media-schemas.js';

export const readMedia = defineBuilderOperation({
  name: 'svc.builder.read_media',
  title: 'Read a media item',
  description:
    'One image of the owner’s media library: its type, size, file name and alt text. Its thumbnail is ' +
    'GET /api/builder/media/thumbnail with the same input.',
  kind: 'query',
  scopes: ['svc.builder.read'],
  enabledFor: ['session', 'token'],
  input: z.strictObject({ targetAgentId, mediaId: uuidSchema }),
  output: mediaOutput,
  async run(ctx, input) {
    const item = await ctx.services.builder.read.mediaItem(input.mediaId);
    if (!item || item.ownerAgentId !== ctx.actor.agentId)
      throw notFound('builder.media_not_found', 'no such media item among yours');
    return toMediaOutput(item);
  },
});

/** Thumbnail sides the route makes (pixels, the longer side); anything else is refused. */
export const THUMBNAIL_SIZES = [64, 128, 256, 512] as const;
export type ThumbnailSize = (typeof THUMBNAIL_SIZES)[number];

/**
 * The thumbnail of an item `readMedia` answered: its stored bytes re-encoded as a WebP at most `size`
 * pixels a side (never enlarged; an animation's first frame). Null when the bytes are not stored.
 */
export async function mediaThumbnail(
  services: BuilderOperationServices,
  item: { sha256: string },
  size: ThumbnailSize,
): Promise<{ bytes: Buffer; contentType: 'image/webp' } | null> {
  const bytes = await services.builder.blobs.get(item.sha256);
  if (!bytes) return null;
  return services.builder.media.thumbnail(bytes, size);
}
