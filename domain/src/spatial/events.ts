// The spatial area's events. A world's changes are recorded under one of two twin types: `world.<what>`
// (federable and public: the world is public, peers and the feed see it) or `world.private.<what>` (the
// world is private: never offered). The data is the same for both; the fold reads either. A world made
// public records `world.published` with the whole public state, so a peer that never saw its private
// history can build it; made private again, `world.unpublished` tells peers to drop it.
// Tags (`spatial_tag.*`) are always public: a tag exists to be resolved by anyone who scans it.
import { z } from 'zod';
import { defineEvent, type EventDefinition } from '../shared/define-event.js';
import { presenceEvents } from './presence-events.js';
import {
  geoPoseSchema,
  nodeStateSchema,
  spatialNodesSchema,
  worldContentSchema,
  worldPortalSchema,
  worldPresenceSchema,
  worldTechnologySchema,
  worldViewSchema,
} from './shapes.js';

const worldSettings = {
  content: worldContentSchema,
  geoPose: geoPoseSchema,
  presence: worldPresenceSchema,
  technology: worldTechnologySchema,
};

const WORLD_EVENT_DATA = {
  created: z.strictObject({
    worldId: z.string(),
    /** The id of the world's spatial composition graph (GET /wow/spatial/<spatialId>). */
    spatialId: z.string(),
    ownerAgentId: z.string(),
    ...worldSettings,
  }),
  /** Each section given replaces the recorded one whole. */
  updated: z.strictObject({
    worldId: z.string(),
    content: worldContentSchema.optional(),
    geoPose: geoPoseSchema.optional(),
    presence: worldPresenceSchema.optional(),
    technology: worldTechnologySchema.optional(),
  }),
  /** A new revision of the graph; every earlier one stays on the log. */
  graph_saved: z.strictObject({
    worldId: z.string(),
    spatialId: z.string(),
    revision: z.number().int().positive(),
    nodes: spatialNodesSchema,
  }),
  view_added: z.strictObject({ worldId: z.string(), view: worldViewSchema }),
  view_removed: z.strictObject({ worldId: z.string(), viewId: z.string() }),
  portal_added: z.strictObject({ worldId: z.string(), portal: worldPortalSchema }),
  portal_removed: z.strictObject({ worldId: z.string(), portalId: z.string() }),
  node_state_set: z.strictObject({
    worldId: z.string(),
    spatialId: z.string(),
    nodeId: z.string(),
    ...nodeStateSchema.shape,
  }),
} as const;
export type WorldChange = keyof typeof WORLD_EVENT_DATA;
export const WORLD_CHANGES = Object.keys(WORLD_EVENT_DATA) as WorldChange[];

/** The event type of a change to a world of this visibility. */
export const worldEventType = (change: WorldChange, isPublic: boolean) =>
  isPublic ? `world.${change}` : `world.private.${change}`;

const publicTwin = <C extends WorldChange>(change: C) =>
  defineEvent({
    type: `world.${change}` as `world.${C}`,
    version: 1,
    federable: true,
    public: true,
    data: WORLD_EVENT_DATA[change],
  });
const privateTwin = <C extends WorldChange>(change: C) =>
  defineEvent({
    type: `world.private.${change}` as `world.private.${C}`,
    version: 1,
    federable: false,
    public: false,
    data: WORLD_EVENT_DATA[change],
  });

export const worldCreated = publicTwin('created');
export const worldUpdated = publicTwin('updated');
export const worldGraphSaved = publicTwin('graph_saved');
export const worldViewAdded = publicTwin('view_added');
export const worldViewRemoved = publicTwin('view_removed');
export const worldPortalAdded = publicTwin('portal_added');
export const worldPortalRemoved = publicTwin('portal_removed');
export const worldNodeStateSet = publicTwin('node_state_set');
export const worldPrivateCreated = privateTwin('created');
export const worldPrivateUpdated = privateTwin('updated');
export const worldPrivateGraphSaved = privateTwin('graph_saved');
export const worldPrivateViewAdded = privateTwin('view_added');
export const worldPrivateViewRemoved = privateTwin('view_removed');
export const worldPrivatePortalAdded = privateTwin('portal_added');
export const worldPrivatePortalRemoved = privateTwin('portal_removed');
export const worldPrivateNodeStateSet = privateTwin('node_state_set');

/** A world made public: its whole public state, so a peer needs nothing earlier. */
export const worldPublished = defineEvent({
  type: 'world.published',
  version: 1,
  federable: true,
  public: true,
  data: z.strictObject({
    ...WORLD_EVENT_DATA.created.shape,
    views: z.array(worldViewSchema),
    portals: z.array(worldPortalSchema),
    /** The latest graph revision (0 and no nodes: none saved yet). */
    graphRevision: z.number().int().nonnegative(),
    nodes: spatialNodesSchema,
    nodeStates: z.record(z.string(), nodeStateSchema),
  }),
});
/** A public world made private: peers drop it. */
export const worldUnpublished = defineEvent({
  type: 'world.unpublished',
  version: 1,
  federable: true,
  public: true,
  data: z.strictObject({ worldId: z.string() }),
});

export const TAG_SCHEMES = ['url', 'nfc'] as const;
export type TagScheme = (typeof TAG_SCHEMES)[number];
export const TAG_TARGET_KINDS = ['world', 'portal', 'view', 'node', 'site', 'agent'] as const;
export type TagTargetKind = (typeof TAG_TARGET_KINDS)[number];

/** What a tag resolves to; `worldId` for the parts of a world (portal, view, node) and worlds. */
export const tagTargetSchema = z.strictObject({
  kind: z.enum(TAG_TARGET_KINDS),
  id: z.string(),
  worldId: z.string().optional(),
});
export type TagTarget = z.infer<typeof tagTargetSchema>;

export const spatialTagRegistered = defineEvent({
  type: 'spatial_tag.registered',
  version: 1,
  federable: true,
  public: true,
  data: z.strictObject({
    scheme: z.enum(TAG_SCHEMES),
    /** The normalized tag id (NFC: lower-case hex without separators; URL: the URL as given). */
    tagId: z.string(),
    ownerAgentId: z.string(),
    target: tagTargetSchema,
    label: z.string().optional(),
  }),
});
export const spatialTagRemoved = defineEvent({
  type: 'spatial_tag.removed',
  version: 1,
  federable: true,
  public: true,
  data: z.strictObject({ scheme: z.enum(TAG_SCHEMES), tagId: z.string() }),
});

/** The operator's choice of the world GET /wow/world serves; null is back to the default. */
export const spatialPrimaryWorldSet = defineEvent({
  type: 'spatial.primary_world_set',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({ worldId: z.string().nullable() }),
});

export const spatialEvents = [
  worldCreated,
  worldUpdated,
  worldGraphSaved,
  worldViewAdded,
  worldViewRemoved,
  worldPortalAdded,
  worldPortalRemoved,
  worldNodeStateSet,
  worldPrivateCreated,
  worldPrivateUpdated,
  worldPrivateGraphSaved,
  worldPrivateViewAdded,
  worldPrivateViewRemoved,
  worldPrivatePortalAdded,
  worldPrivatePortalRemoved,
  worldPrivateNodeStateSet,
  worldPublished,
  worldUnpublished,
  spatialTagRegistered,
  spatialTagRemoved,
  spatialPrimaryWorldSet,
  ...presenceEvents,
] as const satisfies readonly EventDefinition[];

export type WorldEventData<C extends WorldChange> = z.infer<(typeof WORLD_EVENT_DATA)[C]>;
export type SpatialEventData<T extends (typeof spatialEvents)[number]['type']> = z.infer<
  Extract<(typeof spatialEvents)[number], { type: T }>['data']
>;
