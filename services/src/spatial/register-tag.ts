import {
  decideRegisterTag,
  spatialTagStream,
  tagTargetSchema,
  TAG_SCHEMES,
  type TagState,
} from '@tributary/domain';
import { z } from 'zod';
import { defineSpatialOperation } from './spatial-operation.js';
import { targetAgentId } from '../shared/schemas.js';
import { checkedTarget, parsedTag } from './tag-support.js';

export const registerTag = defineSpatialOperation({
  name: 'svc.spatial.register_tag',
  title: 'Register a tag',
  description:
    'Register a scanned tag so GET /api/spatial-web/tags/<scheme>/<id> resolves it (here and, through the feed, on peers): ' +
    'scheme `url` (a QR/URL tag: an https URL) or `nfc` (an NFC UID: 4, 7 or 10 bytes in hex). It points at a public world, ' +
    'view, portal or node of yours, a site of yours, or the agent acted for. A tag is one owner’s.',
  kind: 'command',
  scopes: ['svc.spatial.write'],
  enabledFor: ['session', 'token'],
  input: z.strictObject({
    targetAgentId,
    scheme: z
      .string()
      .max(20)
      .describe(`one of ${TAG_SCHEMES.join(', ')}`),
    id: z.string().min(1).max(2000),
    target: tagTargetSchema,
    label: z.string().trim().min(1).max(200).optional(),
  }),
  output: z.object({
    scheme: z.string(),
    tagId: z.string(),
    target: tagTargetSchema,
    resolveUrl: z.string(),
  }),
  async run(ctx, input) {
    const { scheme, tagId, key } = parsedTag(input.scheme, input.id);
    const target = await checkedTarget(ctx, input.target);
    const stream = spatialTagStream(scheme, key);
    await ctx.commit([stream], (states) =>
      decideRegisterTag(
        { scheme, tagId, key, ownerAgentId: ctx.actor.agentId, target, label: input.label },
        states.get(stream) as TagState,
      ),
    );
    return {
      scheme,
      tagId,
      target,
      resolveUrl: `${ctx.instance.baseUrl}/api/spatial-web/tags/${scheme}/${encodeURIComponent(tagId)}`,
    };
  },
});
