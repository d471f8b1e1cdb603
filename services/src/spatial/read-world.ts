import { z } from 'zod';
import { defineSpatialOperation } from './spatial-operation.js';
import { targetAgentId } from '../shared/schemas.js';
import { ownWorld, worldIdInput, worldOutput, worldOutputOf } from './support.js';

export const readWorld = defineSpatialOperation({
  name: 'svc.spatial.read_world',
  title: 'Read a world',
  description:
    'One of your worlds as it stands: settings, views, portals, the latest graph revision number and node count.',
  kind: 'query',
  scopes: ['svc.spatial.read'],
  enabledFor: ['session', 'token'],
  input: z.strictObject({ targetAgentId, worldId: worldIdInput }),
  output: worldOutput,
  async run(ctx, input) {
    return worldOutputOf(await ownWorld(ctx, input.worldId), ctx.instance.baseUrl);
  },
});
