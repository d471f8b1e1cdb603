import {
  decideSetNodeState,
  nodeIdSchema,
  SPATIAL_LIMITS,
  worldStream,
  type WorldState,
} from '@tributary/domain';
import { z } from 'zod';
import { defineSpatialOperation } from './spatial-operation.js';
import { targetAgentId } from '../shared/schemas.js';
import { ownWorld, worldIdInput } from './support.js';

export const setNodeState = defineSpatialOperation({
  name: 'svc.spatial.set_node_state',
  title: 'Set the live state at a node',
  description:
    'Record the live state of the physical object at a node of the latest graph revision (any JSON value, at most ' +
    `${SPATIAL_LIMITS.stateBytes} bytes), as GET /wow/spatial/<id>/node/<nodeId> then shows it with its time.`,
  kind: 'command',
  scopes: ['svc.spatial.write'],
  enabledFor: ['session', 'token'],
  input: z.strictObject({ targetAgentId, worldId: worldIdInput, nodeId: nodeIdSchema, value: z.json() }),
  output: z.object({ worldId: z.string(), nodeId: z.string(), updatedAt: z.string() }),
  async run(ctx, input) {
    await ownWorld(ctx, input.worldId);
    const updatedAt = ctx.now.toISOString();
    const stream = worldStream(input.worldId);
    await ctx.commit([stream], (states) =>
      decideSetNodeState(
        {
          ownerAgentId: ctx.actor.agentId,
          nodeId: input.nodeId,
          value: input.value,
          valueBytes: Buffer.byteLength(JSON.stringify(input.value)),
          updatedAt,
        },
        states.get(stream) as WorldState,
      ),
    );
    return { worldId: input.worldId, nodeId: input.nodeId, updatedAt };
  },
});
