import {
  decideAddPortal,
  geoPoseSchema,
  portalDestinationSchema,
  SPATIAL_LIMITS,
  spatialTextSchema,
  worldStream,
  type WorldState,
} from '@tributary/domain';
import { z } from 'zod';
import { defineSpatialOperation } from './spatial-operation.js';
import { targetAgentId } from '../shared/schemas.js';
import { checkedDestination, portalDestinationInput } from './portal-destination.js';
import { ownWorld, worldIdInput } from './support.js';

export const addPortal = defineSpatialOperation({
  name: 'svc.spatial.add_portal',
  title: 'Add a portal to a world',
  description:
    'Add a portal (with its geo-pose) from one of your worlds to a public world of this instance, or to a world on a ' +
    `registered peer instance (by its base URL), optionally to a named view there. At most ${SPATIAL_LIMITS.portals} portals.`,
  kind: 'command',
  scopes: ['svc.spatial.write'],
  enabledFor: ['session', 'token'],
  input: z.strictObject({
    targetAgentId,
    worldId: worldIdInput,
    label: spatialTextSchema(SPATIAL_LIMITS.labelChars).optional(),
    destination: portalDestinationInput,
    geoPose: geoPoseSchema,
  }),
  output: z.object({
    worldId: z.string(),
    portalId: z.string(),
    destination: portalDestinationSchema,
    wowUrl: z.string(),
  }),
  async run(ctx, input) {
    await ownWorld(ctx, input.worldId);
    const destination = await checkedDestination(ctx, input.worldId, input.destination);
    const portalId = ctx.services.ids.entityId();
    const stream = worldStream(input.worldId);
    await ctx.commit([stream], (states) =>
      decideAddPortal(
        {
          ownerAgentId: ctx.actor.agentId,
          portalId,
          label: input.label,
          destination,
          geoPose: input.geoPose,
        },
        states.get(stream) as WorldState,
      ),
    );
    return {
      worldId: input.worldId,
      portalId,
      destination,
      wowUrl: `${ctx.instance.baseUrl}/wow/portal/${portalId}`,
    };
  },
});
