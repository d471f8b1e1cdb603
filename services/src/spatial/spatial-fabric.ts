// GET /.well-known/spatial-fabric (RFC 8615): the worlds this instance hosts and where their Web of
// Worlds endpoints are, so a client that knows only the host finds them.
import type { SpatialOperationServices } from './spatial-operation.js';
import { primaryWorld, WOW_VERSION } from './wow-documents.js';
import { spatialPorts } from './support.js';

/** Worlds listed at most: the document stays small; more are reachable through portals and tags. */
export const SPATIAL_FABRIC_MAX_WORLDS = 500;

export async function spatialFabric(c: { services: SpatialOperationServices; baseUrl: string }) {
  const instance = await c.services.instance.read.get();
  const primary = await primaryWorld(c);
  const worlds = await spatialPorts(c.services).read.publicWorlds(SPATIAL_FABRIC_MAX_WORLDS);
  const b = c.baseUrl;
  return {
    spatialFabric: WOW_VERSION,
    api: 'Web of Worlds',
    apiVersion: WOW_VERSION,
    instance: { name: instance?.name ?? '', baseUrl: b, instanceId: instance?.instanceId ?? null },
    endpoints: {
      world: `${b}/wow/world`,
      worldById: `${b}/wow/world/{worldId}`,
      view: `${b}/wow/view/{viewId}`,
      portal: `${b}/wow/portal/{portalId}`,
      spatial: `${b}/wow/spatial/{spatialId}`,
      node: `${b}/wow/spatial/{spatialId}/node/{nodeId}`,
      user: `${b}/wow/user`,
      userById: `${b}/wow/user/{userId}`,
      tags: `${b}/api/spatial-web/tags/{scheme}/{id}`,
      traveller: `${b}/api/spatial-web/traveller`,
    },
    tagSchemes: ['url', 'nfc'],
    worlds: worlds.map((w) => ({
      id: w.worldId,
      label: w.state.content?.label ?? '',
      primary: primary?.worldId === w.worldId,
      world: `${b}/wow/world/${w.worldId}`,
      spatial: `${b}/wow/spatial/${w.spatialId}`,
      views: w.state.views.map((v) => `${b}/wow/view/${v.viewId}`),
      portals: w.state.portals.map((p) => `${b}/wow/portal/${p.portalId}`),
    })),
  };
}
