import { decideRemoveTag, spatialTagStream, type TagState } from '@tributary/domain';
import { z } from 'zod';
import { defineSpatialOperation } from './spatial-operation.js';
import { targetAgentId } from '../shared/schemas.js';
import { parsedTag } from './tag-support.js';

export const removeTag = defineSpatialOperation({
  name: 'svc.spatial.remove_tag',
  title: 'Remove a tag',
  description:
    'Remove one of your tags; it then resolves nowhere (here, and on peers once the feed carries it).',
  kind: 'command',
  scopes: ['svc.spatial.write'],
  enabledFor: ['session', 'token'],
  input: z.strictObject({ targetAgentId, scheme: z.string().max(20), id: z.string().min(1).max(2000) }),
  output: z.object({ scheme: z.string(), tagId: z.string(), removed: z.literal(true) }),
  async run(ctx, input) {
    const { scheme, tagId, key } = parsedTag(input.scheme, input.id);
    const stream = spatialTagStream(scheme, key);
    await ctx.commit([stream], (states) =>
      decideRemoveTag(
        { scheme, tagId, key, ownerAgentId: ctx.actor.agentId },
        states.get(stream) as TagState,
      ),
    );
    return { scheme, tagId, removed: true as const };
  },
});
