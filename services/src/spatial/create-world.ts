import {
  decideCreateWorld,
  geoPoseSchema,
  initialWorldState,
  worldContentSchema,
  worldPresenceSchema,
  worldStream,
  worldTechnologySchema,
  WORLD_VISIBILITIES,
} from '@tributary/domain';
import { z } from 'zod';
import { defineSpatialOperation } from './spatial-operation.js';
import { targetAgentId } from '../shared/schemas.js';
import { worldAfterCommit, worldOutput } from './support.js';

export const createWorld = defineSpatialOperation({
  name: 'svc.spatial.create_world',
  title: 'Create a world',
  description:
    'Create a hosted world (Web of Worlds 0.0.1) for the owner: its content, geo-pose, presence and technology; ' +
    'a public world is federated and served at /wow, a private one is not. Its spatial graph starts empty (revision 0).',
  kind: 'command',
  scopes: ['svc.spatial.write'],
  enabledFor: ['session', 'token'],
  input: z.strictObject({
    targetAgentId,
    visibility: z.enum(WORLD_VISIBILITIES).default('public'),
    content: worldContentSchema,
    geoPose: geoPoseSchema.optional(),
    presence: worldPresenceSchema.optional(),
    technology: worldTechnologySchema.optional(),
  }),
  output: worldOutput,
  async run(ctx, input) {
    const worldId = ctx.services.ids.entityId();
    const spatialId = ctx.services.ids.entityId();
    const stream = worldStream(worldId);
    await ctx.commit(
      [stream],
      () =>
        decideCreateWorld(
          {
            worldId,
            spatialId,
            ownerAgentId: ctx.actor.agentId,
            visibility: input.visibility,
            content: input.content,
            geoPose: input.geoPose,
            presence: input.presence,
            technology: input.technology,
          },
          initialWorldState(),
        ),
      { known: new Map([[stream, { state: initialWorldState(), version: 0 }]]) },
    );
    return worldAfterCommit(ctx, worldId);
  },
});
