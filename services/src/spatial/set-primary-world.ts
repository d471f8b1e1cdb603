import {
  decideSetPrimaryWorld,
  SPATIAL_PRIMARY_STREAM,
  uuidSchema,
  worldStream,
  type PrimaryWorldState,
  type WorldState,
} from '@tributary/domain';
import { z } from 'zod';
import { defineSpatialOperation } from './spatial-operation.js';

export const setPrimaryWorld = defineSpatialOperation({
  name: 'svc.spatial.set_primary_world',
  title: "Choose the instance's primary world",
  description:
    'Operators: choose which public world of this instance GET /wow/world serves (null: the default, the first public ' +
    "world of the instance's primary agent, else the first public world here).",
  kind: 'command',
  scopes: ['svc.spatial.write'],
  enabledFor: ['session', 'token'],
  controllerOnly: true,
  actsForAgent: false,
  input: z.strictObject({ worldId: uuidSchema.nullable() }),
  output: z.object({ worldId: z.string().nullable() }),
  async run(ctx, input) {
    const streams =
      input.worldId === null
        ? [SPATIAL_PRIMARY_STREAM]
        : [SPATIAL_PRIMARY_STREAM, worldStream(input.worldId)];
    await ctx.commit(streams, (states) =>
      decideSetPrimaryWorld(
        { worldId: input.worldId },
        {
          primary: states.get(SPATIAL_PRIMARY_STREAM) as PrimaryWorldState,
          world: input.worldId === null ? null : (states.get(worldStream(input.worldId)) as WorldState),
        },
      ),
    );
    return { worldId: input.worldId };
  },
});
