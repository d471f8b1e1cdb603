import { z } from 'zod';
import { defineSpatialOperation } from './spatial-operation.js';
import { targetAgentId } from '../shared/schemas.js';
import { spatialPorts, worldOutput, worldOutputOf } from './support.js';

export const listWorlds = defineSpatialOperation({
  name: 'svc.spatial.list_worlds',
  title: 'List worlds',
  description: "The owner's worlds on this instance, oldest first.",
  kind: 'query',
  scopes: ['svc.spatial.read'],
  enabledFor: ['session', 'token'],
  input: z.strictObject({ targetAgentId }),
  output: z.object({ worlds: z.array(worldOutput) }),
  async run(ctx) {
    const worlds = await spatialPorts(ctx.services).read.worldsOf(ctx.actor.agentId);
    return { worlds: worlds.map((w) => worldOutputOf(w, ctx.instance.baseUrl)) };
  },
});
