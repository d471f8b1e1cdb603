import { decideRemovePortal, uuidSchema, worldStream, type WorldState } from '@tributary/domain';
import { z } from 'zod';
import { defineSpatialOperation } from './spatial-operation.js';
import { targetAgentId } from '../shared/schemas.js';
import { ownWorld, worldIdInput } from './support.js';

export const removePortal = defineSpatialOperation({
  name: 'svc.spatial.remove_portal',
  title: 'Remove a portal from a world',
  description: 'Remove a portal from one of your worlds; its /wow/portal URL then answers 404.',
  kind: 'command',
  scopes: ['svc.spatial.write'],
  enabledFor: ['session', 'token'],
  input: z.strictObject({ targetAgentId, worldId: worldIdInput, portalId: uuidSchema }),
  output: z.object({ worldId: z.string(), portalId: z.string(), removed: z.literal(true) }),
  async run(ctx, input) {
    await ownWorld(ctx, input.worldId);
    const stream = worldStream(input.worldId);
    await ctx.commit([stream], (states) =>
      decideRemovePortal(
        { ownerAgentId: ctx.actor.agentId, portalId: input.portalId },
        states.get(stream) as WorldState,
      ),
    );
    return { worldId: input.worldId, portalId: input.portalId, removed: true as const };
  },
});
