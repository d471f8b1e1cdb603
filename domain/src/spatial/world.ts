// The world aggregate (stream `world-<worldId>`): settings, the latest revision of its spatial graph,
// views, portals and node states, with the deciders of the world commands. Pure: ids, owner, time and
// the checks that need other streams (a portal's destination, a peer's registration) arrive in the command.
import type { NewEvent } from '../shared/envelope.js';
import { conflict, domainError, invalid, notFound } from '../shared/errors.js';
import type { StoredEventLike } from '../shared/stored-event-like.js';
import { worldEventType, type SpatialEventData, type WorldChange, type WorldEventData } from './events.js';
import { requireValidGraph } from './graph.js';
import {
  ORIGIN_GEOPOSE,
  SPATIAL_LIMITS,
  WORLD_DEFAULTS,
  type GeoPose,
  type NodeState,
  type PortalDestination,
  type SpatialNode,
  type WorldContent,
  type WorldPortal,
  type WorldPresence,
  type WorldTechnology,
  type WorldView,
  type WorldVisibility,
} from './shapes.js';
import { worldStream } from './streams.js';

export interface WorldState {
  exists: boolean;
  worldId?: string;
  spatialId?: string;
  ownerAgentId?: string;
  visibility: WorldVisibility;
  content?: WorldContent;
  geoPose?: GeoPose;
  presence?: WorldPresence;
  technology?: WorldTechnology;
  /** How many graph revisions were saved; the latest's nodes are `nodes`. */
  graphRevision: number;
  nodes: SpatialNode[];
  views: WorldView[];
  portals: WorldPortal[];
  /** By node id, as last set. */
  nodeStates: Record<string, NodeState>;
}

export type ExistingWorld = WorldState & {
  worldId: string;
  spatialId: string;
  ownerAgentId: string;
  content: WorldContent;
  geoPose: GeoPose;
  presence: WorldPresence;
  technology: WorldTechnology;
};

export const initialWorldState = (): WorldState => ({
  exists: false,
  visibility: 'private',
  graphRevision: 0,
  nodes: [],
  views: [],
  portals: [],
  nodeStates: {},
});

/** The change a world event records, whichever twin (`world.x` or `world.private.x`) it is. */
const changeOf = (type: string): string =>
  type.startsWith('world.private.') ? type.slice('world.private.'.length) : type.slice('world.'.length);

export function evolveWorld(state: WorldState, event: StoredEventLike): WorldState {
  if (!event.type.startsWith('world.')) return state;
  const isPublic = !event.type.startsWith('world.private.');
  switch (changeOf(event.type)) {
    case 'created': {
      const d = event.data as WorldEventData<'created'>;
      return {
        ...initialWorldState(),
        exists: true,
        worldId: d.worldId,
        spatialId: d.spatialId,
        ownerAgentId: d.ownerAgentId,
        visibility: isPublic ? 'public' : 'private',
        content: d.content,
        geoPose: d.geoPose,
        presence: d.presence,
        technology: d.technology,
      };
    }
    case 'updated': {
      const d = event.data as WorldEventData<'updated'>;
      return {
        ...state,
        ...(d.content && { content: d.content }),
        ...(d.geoPose && { geoPose: d.geoPose }),
        ...(d.presence && { presence: d.presence }),
        ...(d.technology && { technology: d.technology }),
      };
    }
    case 'graph_saved': {
      const d = event.data as WorldEventData<'graph_saved'>;
      return { ...state, graphRevision: d.revision, nodes: d.nodes };
    }
    case 'view_added': {
      const d = event.data as WorldEventData<'view_added'>;
      return { ...state, views: [...state.views, d.view] };
    }
    case 'view_removed': {
      const d = event.data as WorldEventData<'view_removed'>;
      return { ...state, views: state.views.filter((v) => v.viewId !== d.viewId) };
    }
    case 'portal_added': {
      const d = event.data as WorldEventData<'portal_added'>;
      return { ...state, portals: [...state.portals, d.portal] };
    }
    case 'portal_removed': {
      const d = event.data as WorldEventData<'portal_removed'>;
      return { ...state, portals: state.portals.filter((p) => p.portalId !== d.portalId) };
    }
    case 'node_state_set': {
      const d = event.data as WorldEventData<'node_state_set'>;
      return {
        ...state,
        nodeStates: { ...state.nodeStates, [d.nodeId]: { value: d.value, updatedAt: d.updatedAt } },
      };
    }
    case 'published': {
      const d = event.data as SpatialEventData<'world.published'>;
      return {
        exists: true,
        worldId: d.worldId,
        spatialId: d.spatialId,
        ownerAgentId: d.ownerAgentId,
        visibility: 'public',
        content: d.content,
        geoPose: d.geoPose,
        presence: d.presence,
        technology: d.technology,
        graphRevision: d.graphRevision,
        nodes: d.nodes,
        views: d.views,
        portals: d.portals,
        nodeStates: d.nodeStates,
      };
    }
    case 'unpublished':
      return { ...state, visibility: 'private' };
    default:
      return state;
  }
}

/** Someone else's world and no world are the same 404, so nobody learns of another owner's worlds. */
export function requireOwnWorld(world: WorldState, ownerAgentId: string): asserts world is ExistingWorld {
  if (!world.exists || world.ownerAgentId !== ownerAgentId)
    throw notFound('spatial.world_not_found', 'no such world among yours');
}

const change = <C extends WorldChange>(world: ExistingWorld, c: C, data: WorldEventData<C>): NewEvent => ({
  stream: worldStream(world.worldId),
  type: worldEventType(c, world.visibility === 'public'),
  data: data as Record<string, unknown>,
});

/** The `world.published` data of a world as it stands. */
export const publicSnapshot = (world: ExistingWorld): SpatialEventData<'world.published'> => ({
  worldId: world.worldId,
  spatialId: world.spatialId,
  ownerAgentId: world.ownerAgentId,
  content: world.content,
  geoPose: world.geoPose,
  presence: world.presence,
  technology: world.technology,
  views: world.views,
  portals: world.portals,
  graphRevision: world.graphRevision,
  nodes: world.nodes,
  nodeStates: world.nodeStates,
});

export interface CreateWorld {
  worldId: string;
  spatialId: string;
  ownerAgentId: string;
  visibility: WorldVisibility;
  content: WorldContent;
  geoPose?: GeoPose | undefined;
  presence?: WorldPresence | undefined;
  technology?: WorldTechnology | undefined;
}

export function decideCreateWorld(cmd: CreateWorld, world: WorldState): NewEvent[] {
  // Ids are random: an existing stream means a retried command, which changes nothing.
  if (world.exists) {
    requireOwnWorld(world, cmd.ownerAgentId);
    return [];
  }
  return [
    {
      stream: worldStream(cmd.worldId),
      type: worldEventType('created', cmd.visibility === 'public'),
      data: {
        worldId: cmd.worldId,
        spatialId: cmd.spatialId,
        ownerAgentId: cmd.ownerAgentId,
        content: cmd.content,
        geoPose: cmd.geoPose ?? ORIGIN_GEOPOSE,
        presence: cmd.presence ?? WORLD_DEFAULTS.presence,
        technology: cmd.technology ?? WORLD_DEFAULTS.technology,
      },
    },
  ];
}

export interface UpdateWorld {
  ownerAgentId: string;
  content?: WorldContent | undefined;
  geoPose?: GeoPose | undefined;
  presence?: WorldPresence | undefined;
  technology?: WorldTechnology | undefined;
  visibility?: WorldVisibility | undefined;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Records only the sections that change. Made public, the changes are recorded privately first and then
 * `world.published` carries the result; made private, `world.unpublished` comes first so the changes
 * after it are private.
 */
export function decideUpdateWorld(cmd: UpdateWorld, world: WorldState): NewEvent[] {
  requireOwnWorld(world, cmd.ownerAgentId);
  const sections: Omit<WorldEventData<'updated'>, 'worldId'> = {};
  if (cmd.content && !same(cmd.content, world.content)) sections.content = cmd.content;
  if (cmd.geoPose && !same(cmd.geoPose, world.geoPose)) sections.geoPose = cmd.geoPose;
  if (cmd.presence && !same(cmd.presence, world.presence)) sections.presence = cmd.presence;
  if (cmd.technology && !same(cmd.technology, world.technology)) sections.technology = cmd.technology;
  const changes = Object.keys(sections).length > 0;
  const toVisibility = cmd.visibility ?? world.visibility;
  if (toVisibility === world.visibility)
    return changes ? [change(world, 'updated', { worldId: world.worldId, ...sections })] : [];
  if (toVisibility === 'public') {
    const events = changes ? [change(world, 'updated', { worldId: world.worldId, ...sections })] : [];
    const after = events.reduce<WorldState>(
      (s, e, i) => evolveWorld(s, { ...e, streamVersion: i + 1 }),
      world,
    ) as ExistingWorld;
    return [
      ...events,
      { stream: worldStream(world.worldId), type: 'world.published', data: publicSnapshot(after) },
    ];
  }
  const unpublished: NewEvent = {
    stream: worldStream(world.worldId),
    type: 'world.unpublished',
    data: { worldId: world.worldId },
  };
  const privateWorld: ExistingWorld = { ...world, visibility: 'private' };
  return changes
    ? [unpublished, change(privateWorld, 'updated', { worldId: world.worldId, ...sections })]
    : [unpublished];
}

export interface SaveGraph {
  ownerAgentId: string;
  /** The revision the editor started from (0 before the first save). */
  baseRevision: number;
  /** Schema-checked already; the structure is checked here. */
  nodes: SpatialNode[];
}

export const graphStale = (currentRevision: number) =>
  conflict('spatial.graph_stale', 'the graph changed since the revision you edited', { currentRevision });

/** A new revision over the one it was edited from; another revision is a 409 naming the current one. */
export function decideSaveGraph(cmd: SaveGraph, world: WorldState): NewEvent[] {
  requireOwnWorld(world, cmd.ownerAgentId);
  requireValidGraph(cmd.nodes);
  if (cmd.baseRevision !== world.graphRevision) throw graphStale(world.graphRevision);
  return [
    change(world, 'graph_saved', {
      worldId: world.worldId,
      spatialId: world.spatialId,
      revision: world.graphRevision + 1,
      nodes: cmd.nodes,
    }),
  ];
}

const tooMany = (what: string, limit: number) =>
  domainError('spatial.too_many', 'too_large', `a world has at most ${limit} ${what}`, { what, limit });

export interface AddView {
  ownerAgentId: string;
  viewId: string;
  name: string;
  label?: string | undefined;
  geoPose: GeoPose;
}

export function decideAddView(cmd: AddView, world: WorldState): NewEvent[] {
  requireOwnWorld(world, cmd.ownerAgentId);
  if (world.views.some((v) => v.name === cmd.name))
    throw conflict('spatial.view_name_taken', 'this world has a view of that name', { name: cmd.name });
  if (world.views.length >= SPATIAL_LIMITS.views) throw tooMany('views', SPATIAL_LIMITS.views);
  const view: WorldView = {
    viewId: cmd.viewId,
    name: cmd.name,
    ...(cmd.label !== undefined && { label: cmd.label }),
    geoPose: cmd.geoPose,
  };
  return [change(world, 'view_added', { worldId: world.worldId, view })];
}

export function decideRemoveView(
  cmd: { ownerAgentId: string; viewId: string },
  world: WorldState,
): NewEvent[] {
  requireOwnWorld(world, cmd.ownerAgentId);
  if (!world.views.some((v) => v.viewId === cmd.viewId))
    throw notFound('spatial.view_not_found', 'no such view in this world');
  return [change(world, 'view_removed', { worldId: world.worldId, viewId: cmd.viewId })];
}

export interface AddPortal {
  ownerAgentId: string;
  portalId: string;
  label?: string | undefined;
  /** Checked by services: a local world that exists, or a world id on a registered peer. */
  destination: PortalDestination;
  geoPose: GeoPose;
}

export function decideAddPortal(cmd: AddPortal, world: WorldState): NewEvent[] {
  requireOwnWorld(world, cmd.ownerAgentId);
  if (world.portals.length >= SPATIAL_LIMITS.portals) throw tooMany('portals', SPATIAL_LIMITS.portals);
  const portal: WorldPortal = {
    portalId: cmd.portalId,
    ...(cmd.label !== undefined && { label: cmd.label }),
    destination: cmd.destination,
    geoPose: cmd.geoPose,
  };
  return [change(world, 'portal_added', { worldId: world.worldId, portal })];
}

export function decideRemovePortal(
  cmd: { ownerAgentId: string; portalId: string },
  world: WorldState,
): NewEvent[] {
  requireOwnWorld(world, cmd.ownerAgentId);
  if (!world.portals.some((p) => p.portalId === cmd.portalId))
    throw notFound('spatial.portal_not_found', 'no such portal in this world');
  return [change(world, 'portal_removed', { worldId: world.worldId, portalId: cmd.portalId })];
}

export interface SetNodeState {
  ownerAgentId: string;
  nodeId: string;
  value: NodeState['value'];
  /** The value's JSON text length in UTF-8 bytes (services measure it). */
  valueBytes: number;
  updatedAt: string;
}

/** The live state of the physical object at a node of the latest graph revision. */
export function decideSetNodeState(cmd: SetNodeState, world: WorldState): NewEvent[] {
  requireOwnWorld(world, cmd.ownerAgentId);
  if (!world.nodes.some((n) => n.id === cmd.nodeId))
    throw notFound('spatial.node_not_found', 'no such node in the latest graph revision');
  if (cmd.valueBytes > SPATIAL_LIMITS.stateBytes)
    throw domainError('spatial.state_too_large', 'too_large', 'the state is over its size limit', {
      bytes: cmd.valueBytes,
      limit: SPATIAL_LIMITS.stateBytes,
    });
  return [
    change(world, 'node_state_set', {
      worldId: world.worldId,
      spatialId: world.spatialId,
      nodeId: cmd.nodeId,
      value: cmd.value,
      updatedAt: cmd.updatedAt,
    }),
  ];
}

/** A portal's destination, when it is a world of this instance, must exist and be public. */
export function requirePortalDestination(destinationWorld: WorldState): void {
  if (!destinationWorld.exists || destinationWorld.visibility !== 'public')
    throw invalid('spatial.portal_destination_unknown', 'the destination is not a public world here');
}
