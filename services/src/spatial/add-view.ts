import {
  decideAddView,
  geoPoseSchema,
  SPATIAL_LIMITS,
  spatialTextSchema,
  viewNameSchema,
  worldStream,
  type WorldState,
} from '@tributary/domain';
import { z } from 'zod';
import { defineSpatialOperation } from './spatial-operation.js';
import { targetAgentId } from '../shared/schemas.js';
import { ownWorld, worldIdInput } from './support.js';

export const addView = defineSpatialOperation({
  name: 'svc.spatial.add_view',
  title: 'Add a view to a world',
  description:
    `Add a named arrival (a view) to one of your worlds: where a traveller lands and facing where (a geo-pose). ` +
    `Names are unique in a world; at most ${SPATIAL_LIMITS.views} views.`,
  kind: 'command',
  scopes: ['svc.spatial.write'],
  enabledFor: ['session', 'token'],
  input: z.strictObject({
    targetAgentId,
    worldId: worldIdInput,
    name: viewNameSchema,
    label: spatialTextSchema(SPATIAL_LIMITS.labelChars).optional(),
    geoPose: geoPoseSchema,
  }),
  output: z.object({ worldId: z.string(), viewId: z.string(), name: z.string(), wowUrl: z.string() }),
  async run(ctx, input) {
    await ownWorld(ctx, input.worldId);
    const viewId = ctx.services.ids.entityId();
    const stream = worldStream(input.worldId);
    await ctx.commit([stream], (states) =>
      decideAddView(
        {
          ownerAgentId: ctx.actor.agentId,
          viewId,
          name: input.name,
          label: input.label,
          geoPose: input.geoPose,
        },
        states.get(stream) as WorldState,
      ),
    );
    return {
      worldId: input.worldId,
      viewId,
      name: input.name,
      wowUrl: `${ctx.instance.baseUrl}/wow/view/${viewId}`,
    };
  },
});
