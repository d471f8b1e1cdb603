import {
  decideUpdateWorld,
  geoPoseSchema,
  worldContentSchema,
  worldPresenceSchema,
  worldStream,
  worldTechnologySchema,
  WORLD_VISIBILITIES,
  type WorldState,
} from '@tributary/domain';
import { z } from 'zod';
import { defineSpatialOperation } from './spatial-operation.js';
import { targetAgentId } from '../shared/schemas.js';
import { ownWorld, worldAfterCommit, worldIdInput, worldOutput } from './support.js';

export const updateWorld = defineSpatialOperation({
  name: 'svc.spatial.update_world',
  title: 'Update a world',
  description:
    "Change a world's content, geo-pose, presence, technology or visibility; each section given replaces the recorded one, " +
    'what is left out stays. Made public, the whole world is federated; made private, peers drop it.',
  kind: 'command',
  scopes: ['svc.spatial.write'],
  enabledFor: ['session', 'token'],
  input: z.strictObject({
    targetAgentId,
    worldId: worldIdInput,
    content: worldContentSchema.optional(),
    geoPose: geoPoseSchema.optional(),
    presence: worldPresenceSchema.optional(),
    technology: worldTechnologySchema.optional(),
    visibility: z.enum(WORLD_VISIBILITIES).optional(),
  }),
  output: worldOutput,
  async run(ctx, input) {
    await ownWorld(ctx, input.worldId);
    const stream = worldStream(input.worldId);
    await ctx.commit([stream], (states) =>
      decideUpdateWorld({ ownerAgentId: ctx.actor.agentId, ...input }, states.get(stream) as WorldState),
    );
    return worldAfterCommit(ctx, input.worldId);
  },
});
