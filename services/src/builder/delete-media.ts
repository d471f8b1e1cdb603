import { decideDeleteMedia, mediaStream, notFound, uuidSchema, type MediaState } from '@tributary/domain';
import { z } from 'zod';
import { defineBuilderOperation } from './builder-operation.js';
import { targetAgentId } from '../shared/schemas.js';

export const deleteMedia = defineBuilderOperation({
  name: 'svc.builder.delete_media',
  title: 'Delete a media item',
  description:
    'Removes an image from the owner’s media library. Refused (builder.media_in_use, with the sites) while ' +
    'the published version of one of the owner’s sites shows it. Published and earlier versions keep ' +
    'their bytes: stored files are never removed, so a rollback still serves what it served.',
  kind: 'command',
  scopes: ['svc.builder.write'],
  enabledFor: ['session', 'token'],
  input: z.strictObject({ targetAgentId, mediaId: uuidSchema }),
  output: z.object({ mediaId: z.string(), deleted: z.literal(true) }),
  async run(ctx, input) {
    const owner = ctx.actor.agentId;
    const item = await ctx.services.builder.read.mediaItem(input.mediaId);
    if (!item || item.ownerAgentId !== owner)
      throw notFound('builder.media_not_found', 'no such media item among yours');
    const publishedIn = await ctx.services.builder.read.sitesPublishingBytes(owner, item.sha256);
    const stream = mediaStream(input.mediaId);
    await ctx.commit([stream], (s) =>
      decideDeleteMedia(
        { mediaId: input.mediaId, ownerAgentId: owner, publishedIn },
        s.get(stream) as MediaState,
      ),
    );
    return { mediaId: input.mediaId, deleted: true as const };
  },
});
