// GET /api/spatial-web/tags/<scheme>/<id>: a scanned tag to its public object — where its record and
// manifest live, on this instance or on the peer that registered it (its events came through the feed).
import { notFound, type TagTarget } from '@tributary/domain';
import type { Services } from '../pipeline/services.js';
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

/** The universal-manifest kind of a target (docs/spatial.md#universal-manifests). */
const manifestKind = (t: TagTarget) => (t.kind === 'site' ? 'site' : t.kind === 'agent' ? 'agent' : 'world');

export async function resolveTag(c: { services: Services; baseUrl: string }, scheme: string, rawId: string) {
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
  const manifestId = manifestKind(t) === 'world' ? (worldId ?? t.id) : t.id;
  return {
    scheme: tag.scheme,
    id: tag.tagId,
    label: tag.label,
    target: t,
    origin: tag.origin === null ? 'local' : 'peer',
    instance: base,
    record: recordUrl(base, t, spatialId),
    manifest: `${base}/api/universal-manifest/${manifestKind(t)}/${manifestId}`,
    registeredAt: tag.registeredAt,
  };
}
