import {
  decideSaveGraph,
  domainError,
  SPATIAL_LIMITS,
  spatialNodeSchema,
  worldStream,
  type WorldState,
} from '@tributary/domain';
import { z } from 'zod';
import { defineSpatialOperation } from './spatial-operation.js';
import { targetAgentId } from '../shared/schemas.js';
import { ownWorld, worldIdInput } from './support.js';

export const saveGraph = defineSpatialOperation({
  name: 'svc.spatial.save_graph',
  title: "Save a world's spatial graph",
  description:
    'Save a new revision of the spatial composition graph over the revision you edited (`baseRevision`, 0 before the first). ' +
    `Nodes form a forest: unique ids, parent and children consistent, no cycles, at most ${SPATIAL_LIMITS.nodes} nodes ` +
    `and ${SPATIAL_LIMITS.depth} levels; asset and appearance URIs are http(s). Every revision is kept.`,
  kind: 'command',
  scopes: ['svc.spatial.write'],
  enabledFor: ['session', 'token'],
  input: z.strictObject({
    targetAgentId,
    worldId: worldIdInput,
    baseRevision: z.number().int().nonnegative(),
    // The count is checked by the decider, with its own code; the schema only bounds the parse.
    nodes: z.array(spatialNodeSchema).max(SPATIAL_LIMITS.nodes * 2),
  }),
  output: z.object({
    worldId: z.string(),
    spatialId: z.string(),
    revision: z.number().int(),
    nodeCount: z.number().int(),
  }),
  async run(ctx, input) {
    const bytes = Buffer.byteLength(JSON.stringify(input.nodes));
    if (bytes > SPATIAL_LIMITS.graphBytes)
      throw domainError('spatial.graph_too_large', 'too_large', 'the graph is over its size limit', {
        bytes,
        limit: SPATIAL_LIMITS.graphBytes,
      });
    const world = await ownWorld(ctx, input.worldId);
    const stream = worldStream(input.worldId);
    await ctx.commit([stream], (states) =>
      decideSaveGraph(
        { ownerAgentId: ctx.actor.agentId, baseRevision: input.baseRevision, nodes: input.nodes },
        states.get(stream) as WorldState,
      ),
    );
    return {
      worldId: world.worldId,
      spatialId: world.spatialId,
      revision: input.baseRevision + 1,
      nodeCount: input.nodes.length,
    };
  },
});
