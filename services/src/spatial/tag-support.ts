// A tag's stream key and the check of what it points at: a public object of the owner's on this instance.
import {
  invalid,
  nodeIdSchema,
  normalizeTagId,
  uuidSchema,
  type TagScheme,
  type TagTarget,
} from '@tributary/domain';
import { createHash } from 'node:crypto';
import type { SpatialOperationContext } from './spatial-operation.js';
import { spatialPorts } from './support.js';

/** NFC ids are short hex already; a URL is hashed so any URL makes a bounded, safe stream name. */
export const tagKey = (scheme: TagScheme, tagId: string) =>
  scheme === 'nfc' ? tagId : createHash('sha256').update(tagId).digest('hex');

export function parsedTag(scheme: string, id: string) {
  const { scheme: s, tagId } = normalizeTagId(scheme, id);
  return { scheme: s, tagId, key: tagKey(s, tagId) };
}

const targetMissing = () =>
  invalid('spatial.tag_target_not_found', 'the target is not a public object of yours on this instance');

export async function checkedTarget(ctx: SpatialOperationContext, t: TagTarget): Promise<TagTarget> {
  const read = spatialPorts(ctx.services).read;
  if (t.kind === 'agent') {
    if (t.id !== ctx.actor.agentId) throw targetMissing();
    return { kind: 'agent', id: t.id };
  }
  if (t.kind === 'site') {
    const site = uuidSchema.safeParse(t.id).success ? await ctx.services.builder.read.site(t.id) : null;
    if (!site || site.ownerAgentId !== ctx.actor.agentId) throw targetMissing();
    return { kind: 'site', id: t.id };
  }
  // A world or a part of one: which world, then the part in it.
  let worldId = t.kind === 'world' ? t.id : t.worldId;
  if (t.kind === 'view' || t.kind === 'portal') {
    const part = uuidSchema.safeParse(t.id).success ? await read.part(t.id) : null;
    if (!part || part.kind !== t.kind) throw targetMissing();
    worldId = part.worldId;
  }
  if (!worldId || !uuidSchema.safeParse(worldId).success) throw targetMissing();
  const world = await read.world(worldId);
  if (!world || world.origin !== null || world.ownerAgentId !== ctx.actor.agentId) throw targetMissing();
  if (world.visibility !== 'public')
    throw invalid('spatial.world_not_public', 'a tag points only at a public world or a part of one');
  if (
    t.kind === 'node' &&
    (!nodeIdSchema.safeParse(t.id).success || !world.state.nodes.some((n) => n.id === t.id))
  )
    throw targetMissing();
  return { kind: t.kind, id: t.id, worldId };
}
