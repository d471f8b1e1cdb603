// GET /api/spatial-web/tags/<scheme>/<id>: a scanned tag to its public object — where its record and
// manifest live, on this instance or on the peer that registered it (its events came through the feed).
import { notFound, type TagTarget } from '@tributary/domain';
import type { SpatialOperationServices } from './spatial-operation.js';
import { spatialPorts } from './support.js';
import { parsedTag } from './tag-support.js';

/** Where a target's public record is, on the instance at `base`. */
function recordUrl(base: string, t: TagTarget, spatialId: string | null): string {
  switch (t.kind) {
    case 'world':
      return `${base}/wow/world/${t.id}`;
    case 'view':
      return `${base}/wow/view/${t.id}`;
    case 'portal':
      return `${base}/wow/portal/${t.id}`;
    case 'node':
      return spatialId
        ? `${base}/wow/spatial/${spatialId}/node/${encodeURIComponent(t.id)}`
        : `${base}/wow/world/${t.worldId}`;
    case 'site':
      return `${base}/api/universal-manifest/site/${t.id}`;
    case 'agent':
      return `${base}/api/federation/registry/${t.id}`;
  }
}

/** Agents whose universal manifests are of kind `organization` (docs/manifests.md); others are `person`. */
const ORGANIZATION_KINDS = new Set(['group', 'locale', 'region']);

/**
 * The universal-manifest kind of a target (docs/manifests.md): a world's parts name their world's, a site
 * its own; an agent's depends on what it is, known here only for agents of this instance (null for a
 * peer's agent: follow `record`).
 */
async function manifestKindOf(
  services: SpatialOperationServices,
  t: TagTarget,
  local: boolean,
): Promise<'world' | 'site' | 'person' | 'organization' | null> {
  if (t.kind === 'site') return 'site';
  if (t.kind !== 'agent') return 'world';
  if (!local) return null;
  const agent = await services.agents.read.agent(t.id);
  if (!agent) return null;
  return ORGANIZATION_KINDS.has(agent.kind) ? 'organization' : 'person';
}

export async function resolveTag(
  c: { services: SpatialOperationServices; baseUrl: string },
  scheme: string,
  rawId: string,
) {
  const { scheme: s, tagId } = parsedTag(scheme, rawId);
  const read = spatialPorts(c.services).read;
  const [tag] = await read.tag(s, tagId);
  if (!tag) throw notFound('spatial.tag_not_found', 'no such tag');
  let base = c.baseUrl;
  if (tag.origin !== null) {
    const peer = await c.services.federation?.read.peer(tag.origin);
    if (!peer || peer.blocked) throw notFound('spatial.tag_not_found', 'no such tag');
    base = peer.baseUrl.replace(/\/+$/, '');
  }
  const t = tag.target;
  const worldId = t.kind === 'world' ? t.id : (t.worldId ?? null);
  const world = worldId ? await read.world(worldId) : null;
  const spatialId = world ? world.spatialId : null;
  const kind = await manifestKindOf(c.services, t, tag.origin === null);
  const manifestId = kind === 'world' ? (worldId ?? t.id) : t.id;
  return {
    scheme: tag.scheme,
    id: tag.tagId,
    label: tag.label,
    target: t,
    origin: tag.origin === null ? 'local' : 'peer',
    instance: base,
    record: recordUrl(base, t, spatialId),
    manifest: kind ? `${base}/api/universal-manifest/${kind}/${manifestId}` : null,
    registeredAt: tag.registeredAt,
  };
}
