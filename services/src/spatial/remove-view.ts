import { decideRemoveView, uuidSchema, worldStream, type WorldState } from '@tributary/domain';
import { z } from 'zod';
import { defineSpatialOperation } from './spatial-operation.js';
import { targetAgentId } from '../shared/schemas.js';
import { ownWorld, worldIdInput } from './support.js';

export const removeView = defineSpatialOperation({
  name: 'svc.spatial.remove_view',
  title: 'Remove a view from a world',
  description: 'Remove a named arrival from one of your worlds; its /wow/view URL then answers 404.',
  kind: 'command',
  scopes: ['svc.spatial.write'],
  enabledFor: ['session', 'token'],
  input: z.strictObject({ targetAgentId, worldId: worldIdInput, viewId: uuidSchema }),
  output: z.object({ worldId: z.string(), viewId: z.string(), removed: z.literal(true) }),
  async run(ctx, input) {
    await ownWorld(ctx, input.worldId);
    const stream = worldStream(input.worldId);
    await ctx.commit([stream], (states) =>
      decideRemoveView(
        { ownerAgentId: ctx.actor.agentId, viewId: input.viewId },
        states.get(stream) as WorldState,
      ),
    );
    return { worldId: input.worldId, viewId: input.viewId, removed: true as const };
  },
});
