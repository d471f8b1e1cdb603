// A portal's destination as an owner gives it, checked before anything is written: a world of this
// instance (public, or the portal's own world) with the view named, or a world on a registered peer.
import {
  invalid,
  requirePortalDestination,
  uuidSchema,
  httpUrlSchema,
  type PortalDestination,
  type WorldState,
} from '@tributary/domain';
import { z } from 'zod';
import type { SpatialOperationContext } from './spatial-operation.js';
import { spatialPorts } from './support.js';

export const portalDestinationInput = z.strictObject({
  instance: httpUrlSchema(200)
    .optional()
    .describe("the destination instance's base URL; absent (or this instance's): a world here"),
  worldId: uuidSchema,
  viewId: uuidSchema.optional().describe('the named arrival in the destination world'),
});

const origin = (url: string) => new URL(url).origin;

export async function checkedDestination(
  ctx: SpatialOperationContext,
  fromWorldId: string,
  d: z.infer<typeof portalDestinationInput>,
): Promise<PortalDestination> {
  const viewPart = d.viewId === undefined ? {} : { viewId: d.viewId };
  if (d.instance === undefined || origin(d.instance) === origin(ctx.instance.baseUrl)) {
    const record = await spatialPorts(ctx.services).read.world(d.worldId);
    const local = record && record.origin === null ? record.state : null;
    const own = local && record?.ownerAgentId === ctx.actor.agentId && d.worldId === fromWorldId;
    if (!own) requirePortalDestination(local ?? ({ exists: false } as WorldState));
    if (d.viewId !== undefined && !local?.views.some((v) => v.viewId === d.viewId))
      throw invalid('spatial.portal_destination_unknown', 'the destination world has no such view');
    return { kind: 'local', worldId: d.worldId, ...viewPart };
  }
  const peers = (await ctx.services.federation?.read.peers()) ?? [];
  const peer = peers.find((p) => !p.blocked && origin(p.baseUrl) === origin(d.instance!));
  if (!peer)
    throw invalid('spatial.peer_not_registered', 'the destination instance is not a registered peer', {
      instance: d.instance,
    });
  return { kind: 'peer', instance: peer.baseUrl, worldId: d.worldId, ...viewPart };
}
