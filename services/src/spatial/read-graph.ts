import { notFound, spatialNodeSchema } from '@tributary/domain';
import { z } from 'zod';
import { defineSpatialOperation } from './spatial-operation.js';
import { targetAgentId } from '../shared/schemas.js';
import { ownWorld, spatialPorts, worldIdInput } from './support.js';

export const readGraph = defineSpatialOperation({
  name: 'svc.spatial.read_graph',
  title: "Read a world's spatial graph",
  description:
    "One of your worlds' spatial composition graph: the latest revision, or any kept one by `revision` (every revision is kept).",
  kind: 'query',
  scopes: ['svc.spatial.read'],
  enabledFor: ['session', 'token'],
  input: z.strictObject({
    targetAgentId,
    worldId: worldIdInput,
    revision: z.number().int().positive().optional(),
  }),
  output: z.object({
    worldId: z.string(),
    spatialId: z.string(),
    revision: z.number().int(),
    latestRevision: z.number().int(),
    nodes: z.array(spatialNodeSchema),
  }),
  async run(ctx, input) {
    const world = await ownWorld(ctx, input.worldId);
    const base = { worldId: world.worldId, spatialId: world.spatialId, latestRevision: world.graphRevision };
    if (input.revision === undefined || input.revision === world.graphRevision)
      return { ...base, revision: world.graphRevision, nodes: world.state.nodes };
    const kept = await spatialPorts(ctx.services).read.graphRevision(world.worldId, input.revision);
    if (!kept) throw notFound('spatial.spatial_not_found', 'no such revision of this graph');
    return { ...base, revision: kept.revision, nodes: kept.nodes };
  },
});
