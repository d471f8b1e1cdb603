// The public Web of Worlds 0.0.1 documents (docs/spatial.md#the-wow-routes): read-only views of public
// worlds, built from the spatial read model. They are plain reads, as the feed's are (no principal, no
// write): the routes call them directly. Each is in the shape of upstream's OpenSpatialWorld API.yaml
// (its World, View, Portal, Spatial, Node) so an upstream client reads it; what we add is under the one
// member `tributary`. Ids are strings (UUIDs, node ids; upstream says number: our one deviation).
import {
  invalid,
  notFound,
  nodeIdSchema,
  ORIGIN_GEOPOSE,
  type GeoPose,
  type SpatialNode,
  type WorldState,
} from '@tributary/domain';
import type { SpatialOperationServices } from './spatial-operation.js';
import type { WorldRecord } from './ports.js';
import { requireUuid, spatialPorts } from './support.js';

export const WOW_VERSION = '0.0.1';

/** The member under which every document puts what upstream's schema does not name. */
export const WOW_EXTENSION = 'tributary';

/** Upstream's geoPose: OGC GeoPose Basic-YPR with the longitude spelled `lan`, as API.yaml spells it. */
export interface WowGeoPose {
  position: { lat: number; lan: number; h: number };
  angles: GeoPose['angles'];
}
export const wowGeoPose = (g: GeoPose = ORIGIN_GEOPOSE): WowGeoPose => ({
  position: { lat: g.position.lat, lan: g.position.lon, h: g.position.h },
  angles: { ...g.angles },
});

/**
 * A node's transform as upstream's `localTransform` (an array of numbers): the 4×4 matrix of
 * translation × rotation × scale, column-major, as glTF's `node.matrix` writes it.
 */
export function transformMatrix(t: SpatialNode['localTransform']): number[] {
  const [x, y, z, w] = t.rotation;
  const [sx, sy, sz] = t.scale;
  const [tx, ty, tz] = t.position;
  // prettier-ignore
  return [
    (1 - 2 * (y * y + z * z)) * sx, 2 * (x * y + z * w) * sx, 2 * (x * z - y * w) * sx, 0,
    2 * (x * y - z * w) * sy, (1 - 2 * (x * x + z * z)) * sy, 2 * (y * z + x * w) * sy, 0,
    2 * (x * z + y * w) * sz, 2 * (y * z - x * w) * sz, (1 - 2 * (x * x + y * y)) * sz, 0,
    tx, ty, tz, 1,
  ];
}

/** Upstream's Node: children embedded (the subtree), the matrix; our exact transform under the extension. */
export interface WowNode {
  id: string;
  label?: string;
  names?: string[];
  parent?: string;
  children: WowNode[];
  localTransform: number[];
  spatialAssetURI?: string;
  appearanceURI?: string;
  tributary: { localTransform: SpatialNode['localTransform'] } & Record<string, unknown>;
}

function wowNodeTree(nodes: readonly SpatialNode[], rootId: string): WowNode {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const build = (n: SpatialNode): WowNode => ({
    id: n.id,
    ...(n.label !== undefined && { label: n.label }),
    ...(n.names !== undefined && { names: n.names }),
    ...(n.parent !== null && { parent: n.parent }),
    // A saved graph is a checked forest (domain/src/spatial): every child id names a node, no cycle.
    children: n.children.map((c) => build(byId.get(c)!)),
    localTransform: transformMatrix(n.localTransform),
    ...(n.spatialAssetUri !== undefined && { spatialAssetURI: n.spatialAssetUri }),
    ...(n.appearanceUri !== undefined && { appearanceURI: n.appearanceUri }),
    [WOW_EXTENSION]: { localTransform: n.localTransform },
  });
  return build(byId.get(rootId)!);
}

interface WowContext {
  services: SpatialOperationServices;
  baseUrl: string;
}

const worldUrl = (base: string, worldId: string) => `${base}/wow/world/${worldId}`;
const spatialUrl = (base: string, spatialId: string) => `${base}/wow/spatial/${spatialId}`;

/** A public world of this instance (a peer's world, or a private one, is not served as ours). */
async function publicLocalWorld(c: WowContext, worldId: string): Promise<WorldRecord | null> {
  const w = await spatialPorts(c.services).read.world(worldId);
  return w && w.origin === null && w.visibility === 'public' ? w : null;
}

/** The world GET /wow/world serves: the operator's choice, else the primary agent's first public world, else the first. */
export async function primaryWorld(c: WowContext): Promise<WorldRecord | null> {
  const read = spatialPorts(c.services).read;
  const chosen = await read.primaryWorldId();
  if (chosen) {
    const w = await publicLocalWorld(c, chosen);
    if (w) return w;
  }
  const instance = await c.services.instance.read.get();
  const worlds = await read.publicWorlds(1000);
  return worlds.find((w) => w.ownerAgentId === instance?.primaryAgentId) ?? worlds[0] ?? null;
}

export interface WowWorld {
  content: WorldState['content'];
  geoPose: WowGeoPose;
  presence: WorldState['presence'];
  technology: WorldState['technology'];
  users: { active_user_count: number; total_user_count: number };
  views: { view_count: number };
  portals: { portal_count: number };
  tributary: {
    id: string;
    spatial: { id: string; revision: number; node_count: number; href: string };
    links: { self: string; views: string[]; portals: string[] };
    updatedAt: string;
  };
}

async function wowWorldOf(c: WowContext, w: WorldRecord): Promise<WowWorld> {
  const s = w.state;
  const counts = (await c.services.spatial?.presenceCounts?.(w.worldId)) ?? { active: 0, total: 0 };
  return {
    content: s.content,
    geoPose: wowGeoPose(s.geoPose),
    presence: s.presence,
    technology: s.technology,
    users: { active_user_count: counts.active, total_user_count: counts.total },
    views: { view_count: s.views.length },
    portals: { portal_count: s.portals.length },
    tributary: {
      id: w.worldId,
      spatial: {
        id: w.spatialId,
        revision: s.graphRevision,
        node_count: s.nodes.length,
        href: spatialUrl(c.baseUrl, w.spatialId),
      },
      links: {
        self: worldUrl(c.baseUrl, w.worldId),
        views: s.views.map((v) => `${c.baseUrl}/wow/view/${v.viewId}`),
        portals: s.portals.map((p) => `${c.baseUrl}/wow/portal/${p.portalId}`),
      },
      updatedAt: w.updatedAt,
    },
  };
}

/** GET /wow/world (the primary world) and GET /wow/world/<worldId>. */
export async function wowWorld(c: WowContext, worldId?: string): Promise<WowWorld> {
  if (worldId === undefined) {
    const w = await primaryWorld(c);
    if (!w) throw notFound('spatial.no_primary_world', 'this instance hosts no public world');
    return wowWorldOf(c, w);
  }
  const w = await publicLocalWorld(c, requireUuid(worldId, 'worldId'));
  if (!w) throw notFound('spatial.world_not_found', 'no such public world here');
  return wowWorldOf(c, w);
}

/** A view or portal of a public world here, by id. */
async function partOf(c: WowContext, kind: 'view' | 'portal', id: string) {
  const partId = requireUuid(id, `${kind}Id`);
  const part = await spatialPorts(c.services).read.part(partId);
  const world = part && part.kind === kind ? await publicLocalWorld(c, part.worldId) : null;
  return { partId, world };
}

export interface WowView {
  id: string;
  geoPose: WowGeoPose;
  tributary: { name: string; label: string | null; world: string; join: string };
}

/** GET /wow/view/<viewId>. */
export async function wowView(c: WowContext, viewId: string): Promise<WowView> {
  const { partId, world } = await partOf(c, 'view', viewId);
  const view = world?.state.views.find((v) => v.viewId === partId);
  if (!world || !view) throw notFound('spatial.view_not_found', 'no such view here');
  return {
    id: view.viewId,
    geoPose: wowGeoPose(view.geoPose),
    tributary: {
      name: view.name,
      label: view.label ?? null,
      world: worldUrl(c.baseUrl, world.worldId),
      // WoW's join fragment: URL#join=aspect.id
      join: `${worldUrl(c.baseUrl, world.worldId)}#join=${view.viewId}`,
    },
  };
}

export interface WowPortal {
  id: string;
  geoPose: WowGeoPose;
  tributary: { label: string | null; world: string; destination: WowPortalDestination };
}
interface WowPortalDestination {
  kind: 'local' | 'peer';
  instance: string;
  worldId: string;
  viewId: string | null;
  href: string;
  join: string | null;
  /** Where the destination's summary came from: this instance, a peer's events through the feed, or nowhere. */
  resolvedFrom: 'local' | 'feed' | 'unresolved';
  world: { id: string; label: string; view_count: number; portal_count: number; spatial: string } | null;
}

/** GET /wow/portal/<portalId>: the portal with its destination resolved, here or on a peer. */
export async function wowPortal(c: WowContext, portalId: string): Promise<WowPortal> {
  const { partId, world } = await partOf(c, 'portal', portalId);
  const portal = world?.state.portals.find((p) => p.portalId === partId);
  if (!world || !portal) throw notFound('spatial.portal_not_found', 'no such portal here');
  const d = portal.destination;
  const instance = d.kind === 'local' ? c.baseUrl : d.instance.replace(/\/+$/, '');
  let target: WorldRecord | null = null;
  let resolvedFrom: WowPortalDestination['resolvedFrom'] = 'unresolved';
  if (d.kind === 'local') {
    target = await publicLocalWorld(c, d.worldId);
    if (target) resolvedFrom = 'local';
  } else {
    // A peer's public world is known here once its events arrived through the feed.
    const peers = (await c.services.federation?.read.peers()) ?? [];
    const peer = peers.find((p) => new URL(p.baseUrl).origin === new URL(d.instance).origin);
    const known = peer ? await spatialPorts(c.services).read.world(d.worldId) : null;
    if (known && known.origin === peer?.peerId && known.visibility === 'public') {
      target = known;
      resolvedFrom = 'feed';
    }
  }
  const href = worldUrl(instance, d.worldId);
  return {
    id: portal.portalId,
    geoPose: wowGeoPose(portal.geoPose),
    tributary: {
      label: portal.label ?? null,
      world: worldUrl(c.baseUrl, world.worldId),
      destination: {
        kind: d.kind,
        instance,
        worldId: d.worldId,
        viewId: d.viewId ?? null,
        href,
        join: d.viewId ? `${href}#join=${d.viewId}` : null,
        resolvedFrom,
        world: target
          ? {
              id: target.worldId,
              label: target.state.content?.label ?? '',
              view_count: target.state.views.length,
              portal_count: target.state.portals.length,
              spatial: spatialUrl(instance, target.spatialId),
            }
          : null,
      },
    },
  };
}

/** The public world whose graph is `spatialId`. */
async function spatialWorld(c: WowContext, spatialId: string): Promise<WorldRecord> {
  const id = requireUuid(spatialId, 'spatialId');
  const w = await spatialPorts(c.services).read.worldBySpatialId(id);
  if (!w || w.origin !== null || w.visibility !== 'public')
    throw notFound('spatial.spatial_not_found', 'no public spatial graph with this id');
  return w;
}

/** GET /wow/spatial/<spatialId>: the latest revision, as the JSON text served, with its revision. */
export async function wowSpatialText(
  c: WowContext,
  spatialId: string,
): Promise<{ text: string; revision: number; worldId: string; updatedAt: string }> {
  const w = await spatialWorld(c, spatialId);
  const s = w.state;
  const roots = s.nodes.filter((n) => n.parent === null).map((n) => n.id);
  // Upstream's Spatial names one root; a client walks the graph from it through the node route. Ours is
  // a forest: every root, and the nodes as saved (svc.spatial.save_graph's shape), are in the extension.
  const doc = {
    id: w.spatialId,
    ...(roots[0] !== undefined && { rootNodeID: roots[0] }),
    geoPose: wowGeoPose(s.geoPose),
    [WOW_EXTENSION]: {
      world: worldUrl(c.baseUrl, w.worldId),
      revision: s.graphRevision,
      node_count: s.nodes.length,
      roots,
      nodes: s.nodes,
      updatedAt: w.updatedAt,
    },
  };
  return { text: JSON.stringify(doc), revision: s.graphRevision, worldId: w.worldId, updatedAt: w.updatedAt };
}

/**
 * GET /wow/spatial/<spatialId>/node/<nodeId>: one node of the latest revision as upstream's node tree
 * (its subtree embedded), with the live state of the object at it.
 */
export async function wowNode(c: WowContext, spatialId: string, nodeId: string): Promise<WowNode> {
  const id = requireNodeId(nodeId);
  return nodeOf(c, await spatialWorld(c, spatialId), id);
}

/**
 * GET /wow/scene/node/<nodeId>: the same node of the primary world's graph (/wow/world's), at the path
 * an earlier draft of upstream's API.yaml gave nodes of the one world an endpoint serves.
 */
export async function wowSceneNode(c: WowContext, nodeId: string): Promise<WowNode> {
  const id = requireNodeId(nodeId);
  const w = await primaryWorld(c);
  if (!w) throw notFound('spatial.no_primary_world', 'this instance hosts no public world');
  return nodeOf(c, w, id);
}

function requireNodeId(nodeId: string): string {
  if (!nodeIdSchema.safeParse(nodeId).success)
    throw invalid('spatial.id_invalid', 'a node id is 1–64 of A-Z a-z 0-9 . _ : -', { field: 'nodeId' });
  return nodeId;
}

function nodeOf(c: WowContext, w: WorldRecord, nodeId: string): WowNode {
  if (!w.state.nodes.some((n) => n.id === nodeId))
    throw notFound('spatial.node_not_found', 'no such node in the latest revision');
  const tree = wowNodeTree(w.state.nodes, nodeId);
  const state = w.state.nodeStates[nodeId];
  return {
    ...tree,
    [WOW_EXTENSION]: {
      ...tree[WOW_EXTENSION],
      spatial: spatialUrl(c.baseUrl, w.spatialId),
      revision: w.state.graphRevision,
      state: state ? { value: state.value, updatedAt: state.updatedAt } : null,
    },
  };
}

/**
 * When the graph `spatialId` serves was last changed (any change of its world), or null when it is no
 * longer a public graph here: a cheap check of a cached body.
 */
export async function wowSpatialVersion(c: WowContext, spatialId: string): Promise<string | null> {
  const v = await spatialPorts(c.services).read.worldVersionBySpatialId(spatialId);
  return v && v.origin === null && v.visibility === 'public' ? v.updatedAt : null;
}
