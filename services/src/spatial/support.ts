// What the spatial operations share: the area's ports, the inputs' id schemas, and a world as its owner
// sees it.
import {
  geoPoseSchema,
  invalid,
  notFound,
  uuidSchema,
  worldContentSchema,
  worldPresenceSchema,
  worldTechnologySchema,
  worldPortalSchema,
  worldViewSchema,
  type WorldState,
} from '@tributary/domain';
import { z } from 'zod';
import type { SpatialOperationContext } from './spatial-operation.js';
import type { SpatialOperationServices } from './spatial-operation.js';
import type { SpatialPorts } from './ports.js';
import type { WorldRecord } from './ports.js';

export function spatialPorts(services: SpatialOperationServices): SpatialPorts {
  if (!services.spatial) throw new Error('the spatial area is not composed in this process');
  return services.spatial;
}

export const worldIdInput = uuidSchema.describe('the world id');

/** A path id of the public routes: a UUID, or 400 `spatial.id_invalid` naming the field. */
export function requireUuid(value: string, field: string): string {
  if (!uuidSchema.safeParse(value).success)
    throw invalid('spatial.id_invalid', `${field} must be a UUID`, { field });
  return value.toLowerCase();
}

/** A world of the actor's (a record of someone else's, or a peer's, is the same 404). */
export async function ownWorld(ctx: SpatialOperationContext, worldId: string): Promise<WorldRecord> {
  const world = await spatialPorts(ctx.services).read.world(worldId);
  if (!world || world.origin !== null || world.ownerAgentId !== ctx.actor.agentId)
    throw notFound('spatial.world_not_found', 'no such world among yours');
  return world;
}

export const worldOutput = z.object({
  worldId: z.string(),
  spatialId: z.string(),
  ownerAgentId: z.string(),
  visibility: z.enum(['public', 'private']),
  content: worldContentSchema,
  geoPose: geoPoseSchema,
  presence: worldPresenceSchema,
  technology: worldTechnologySchema,
  graphRevision: z.number().int(),
  nodeCount: z.number().int(),
  views: z.array(worldViewSchema),
  portals: z.array(worldPortalSchema),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Where the world is served publicly (null for a private world). */
  wowUrl: z.string().nullable(),
});
export type WorldOutput = z.infer<typeof worldOutput>;

export function worldOutputOf(record: WorldRecord, baseUrl: string): WorldOutput {
  const s: WorldState = record.state;
  return {
    worldId: record.worldId,
    spatialId: record.spatialId,
    ownerAgentId: record.ownerAgentId,
    visibility: record.visibility,
    content: s.content!,
    geoPose: s.geoPose!,
    presence: s.presence!,
    technology: s.technology!,
    graphRevision: s.graphRevision,
    nodeCount: s.nodes.length,
    views: s.views,
    portals: s.portals,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    wowUrl: record.visibility === 'public' ? `${baseUrl}/wow/world/${record.worldId}` : null,
  };
}

/** The world as it stands after a commit (the inline projection has it). */
export async function worldAfterCommit(ctx: SpatialOperationContext, worldId: string): Promise<WorldOutput> {
  const world = await spatialPorts(ctx.services).read.world(worldId);
  if (!world) throw new Error('world missing from its inline projection after commit');
  return worldOutputOf(world, ctx.instance.baseUrl);
}
