// The shapes of a world as stored and served. The sections of a world (content, presence, technology)
// keep the field names of Web of Worlds 0.0.1 (`age_restriction`, `webXR-immersive`) so the public
// routes serve them as recorded; a geo-pose is the OGC GeoPose Basic-YPR shape.
import { z } from 'zod';
import { httpUrlSchema } from '../shared/http-url.js';

/** Limits of one world, stated in docs/spatial.md. */
export const SPATIAL_LIMITS = {
  nodes: 5000,
  /** Nodes on the longest root-to-leaf path. */
  depth: 64,
  namesPerNode: 16,
  childrenPerNode: 5000,
  views: 100,
  portals: 100,
  /** A node's live state as JSON text, UTF-8 bytes. */
  stateBytes: 4096,
  labelChars: 200,
  /**
   * A graph's JSON as stored, UTF-8 bytes (services measure it): 1 MiB, so an event carrying a graph
   * (a revision, or `world.published`) stays well inside a peer's 2 MiB import batch.
   */
  graphBytes: 1024 * 1024,
} as const;

// eslint-disable-next-line no-control-regex
const NO_CONTROLS = /^[^\u0000-\u001f\u007f]*$/;
export const spatialTextSchema = (max: number) =>
  z.string().trim().max(max).regex(NO_CONTROLS, 'no control characters');

/** A node id, chosen by the editor: 1–64 of A-Z a-z 0-9 . _ : - */
export const NODE_ID = /^[A-Za-z0-9._:-]{1,64}$/;
export const nodeIdSchema = z.string().regex(NODE_ID, 'a node id: 1–64 of A-Z a-z 0-9 . _ : -');
/** A view's name (the arrival's name in a link): lower-case slug. */
export const viewNameSchema = z
  .string()
  .regex(/^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/, 'a view name: a-z 0-9 and inner hyphens, 1–64');

const finite = z.number().finite();
const degrees = z.number().min(-360).max(360);

/** OGC GeoPose Basic-YPR: WGS84 position (height in metres) and yaw/pitch/roll in degrees. */
export const geoPoseSchema = z.strictObject({
  position: z.strictObject({
    lat: z.number().min(-90).max(90),
    lon: z.number().min(-180).max(180),
    h: finite,
  }),
  angles: z.strictObject({ yaw: degrees, pitch: degrees, roll: degrees }),
});
export type GeoPose = z.infer<typeof geoPoseSchema>;
export const ORIGIN_GEOPOSE: GeoPose = {
  position: { lat: 0, lon: 0, h: 0 },
  angles: { yaw: 0, pitch: 0, roll: 0 },
};

/** WoW 0.0.1 `World.content`. */
export const worldContentSchema = z.strictObject({
  label: spatialTextSchema(SPATIAL_LIMITS.labelChars).min(1),
  age_restriction: z.number().int().min(0).max(99),
  license: spatialTextSchema(200),
  cost: spatialTextSchema(100),
  version: z.number().finite().nonnegative(),
  /** Seconds; 0 is open-ended. */
  duration: z.number().finite().nonnegative(),
});
export type WorldContent = z.infer<typeof worldContentSchema>;

/** WoW 0.0.1 `World.presence`. */
export const worldPresenceSchema = z.strictObject({
  avatar: spatialTextSchema(200),
  navigation: spatialTextSchema(200),
  gravity: spatialTextSchema(200),
});
export type WorldPresence = z.infer<typeof worldPresenceSchema>;

/** WoW 0.0.1 `World.technology`: a WebXR session mode and the runtime (web framework or engine). */
export const worldTechnologySchema = z.strictObject({
  'webXR-immersive': spatialTextSchema(100),
  runtime: spatialTextSchema(200),
});
export type WorldTechnology = z.infer<typeof worldTechnologySchema>;

export const WORLD_DEFAULTS = {
  presence: { avatar: 'any', navigation: 'walk', gravity: 'earth' } satisfies WorldPresence,
  technology: { 'webXR-immersive': 'immersive-vr', runtime: 'web' } satisfies WorldTechnology,
};

export const WORLD_VISIBILITIES = ['public', 'private'] as const;
export type WorldVisibility = (typeof WORLD_VISIBILITIES)[number];

const vec3 = z.tuple([finite, finite, finite]);
/** A node's transform relative to its parent: position (m), rotation (unit quaternion x,y,z,w), scale. */
export const localTransformSchema = z.strictObject({
  position: vec3,
  rotation: z.tuple([finite, finite, finite, finite]),
  scale: vec3,
});
export const IDENTITY_TRANSFORM = { position: [0, 0, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1] } as const;

/** One node of a spatial composition graph. */
export const spatialNodeSchema = z.strictObject({
  id: nodeIdSchema,
  label: spatialTextSchema(SPATIAL_LIMITS.labelChars).optional(),
  names: z.array(spatialTextSchema(100).min(1)).max(SPATIAL_LIMITS.namesPerNode).optional(),
  parent: nodeIdSchema.nullable(),
  children: z.array(nodeIdSchema).max(SPATIAL_LIMITS.childrenPerNode),
  localTransform: localTransformSchema,
  spatialAssetUri: httpUrlSchema().optional(),
  appearanceUri: httpUrlSchema().optional(),
});
export type SpatialNode = z.infer<typeof spatialNodeSchema>;
export const spatialNodesSchema = z.array(spatialNodeSchema).max(SPATIAL_LIMITS.nodes);

/** A named arrival: where a traveller lands, and facing where. */
export const worldViewSchema = z.strictObject({
  viewId: z.string(),
  name: viewNameSchema,
  label: spatialTextSchema(SPATIAL_LIMITS.labelChars).optional(),
  geoPose: geoPoseSchema,
});
export type WorldView = z.infer<typeof worldViewSchema>;

/** Where a portal leads: a world of this instance, or a world on a registered peer (by its base URL). */
export const portalDestinationSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('local'), worldId: z.string(), viewId: z.string().optional() }),
  z.strictObject({
    kind: z.literal('peer'),
    instance: httpUrlSchema(200),
    worldId: z.string(),
    viewId: z.string().optional(),
  }),
]);
export type PortalDestination = z.infer<typeof portalDestinationSchema>;

export const worldPortalSchema = z.strictObject({
  portalId: z.string(),
  label: spatialTextSchema(SPATIAL_LIMITS.labelChars).optional(),
  destination: portalDestinationSchema,
  geoPose: geoPoseSchema,
});
export type WorldPortal = z.infer<typeof worldPortalSchema>;

/** A node's live state as the owner's agent last set it. */
export const nodeStateSchema = z.strictObject({
  value: z.json(),
  updatedAt: z.string(),
});
export type NodeState = z.infer<typeof nodeStateSchema>;
