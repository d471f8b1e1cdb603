import { uuidSchema } from '@tributary/domain';
import { z } from 'zod';
import { defineBuilderOperation } from './builder-operation.js';
import { targetAgentId } from '../shared/schemas.js';
import { mediaOutput, toMediaOutput } from './media-schemas.js';

export const MEDIA_PAGE_DEFAULT = 50;
export const MEDIA_PAGE_MAX = 200;

export const listMedia = defineBuilderOperation({
  name: 'svc.builder.list_media',
  title: 'List media',
  description:
    'The owner’s media library, newest first, a page at a time: pass the `nextBefore` of one page as `before` ' +
    'to get the following one (null on the last page).',
  kind: 'query',
  scopes: ['svc.builder.read'],
  enabledFor: ['session', 'token'],
  input: z.strictObject({
    targetAgentId,
    limit: z.coerce.number().int().min(1).max(MEDIA_PAGE_MAX).default(MEDIA_PAGE_DEFAULT),
    before: uuidSchema.optional().describe('the mediaId the previous page ended with'),
  }),
  output: z.object({ items: z.array(mediaOutput), nextBefore: z.string().nullable() }),
  async run(ctx, input) {
    const page = await ctx.services.builder.read.mediaOf(ctx.actor.agentId, {
      limit: input.limit + 1,
      before: input.before,
    });
    const items = page.slice(0, input.limit).map(toMediaOutput);
    return { items, nextBefore: page.length > input.limit ? items[items.length - 1]!.mediaId : null };
  },
});
