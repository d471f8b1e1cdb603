// What the spatial area reads from its projection (projections/src/spatial): worlds (ours, and peers'
// public worlds that arrived through the feed), kept graph revisions, the view/portal index, tags and
// the primary world.
import type { SpatialNode, TagScheme, TagTarget, WorldState } from '@tributary/domain';

export interface WorldRecord {
  worldId: string;
  spatialId: string;
  ownerAgentId: string;
  /** null: a world of this instance; otherwise the peer instance id it came from. */
  origin: string | null;
  visibility: 'public' | 'private';
  /** The folded world (with its latest graph). */
  state: WorldState;
  graphRevision: number;
  createdAt: string;
  updatedAt: string;
}

export interface TagRecord {
  scheme: TagScheme;
  tagId: string;
  /** null: registered here; otherwise the peer instance id it came from. */
  origin: string | null;
  ownerAgentId: string;
  target: TagTarget;
  label: string | null;
  registeredAt: string;
}

export interface SpatialReadModels {
  world(worldId: string): Promise<WorldRecord | null>;
  worldBySpatialId(spatialId: string): Promise<WorldRecord | null>;
  /** What tells whether a served graph is still current, without reading the world's state. */
  worldVersionBySpatialId(spatialId: string): Promise<{
    worldId: string;
    origin: string | null;
    visibility: 'public' | 'private';
    updatedAt: string;
  } | null>;
  /** An owner's worlds on this instance, oldest first. */
  worldsOf(ownerAgentId: string): Promise<WorldRecord[]>;
  /** This instance's public worlds, oldest first, at most `limit`. */
  publicWorlds(limit: number): Promise<WorldRecord[]>;
  /** The world holding view or portal `partId`. */
  part(partId: string): Promise<{ kind: 'view' | 'portal'; worldId: string } | null>;
  /** One kept revision of a world's graph. */
  graphRevision(
    worldId: string,
    revision: number,
  ): Promise<{ revision: number; nodes: SpatialNode[]; savedAt: string } | null>;
  /** A tag's registrations: this instance's first, then peers'. */
  tag(scheme: TagScheme, tagId: string): Promise<TagRecord[]>;
  /** The operator's choice of primary world (null: none made). */
  primaryWorldId(): Promise<string | null>;
}

/** The spatial area's ports (infra/src/compose/compose-spatial.ts). */
export interface SpatialPorts {
  read: SpatialReadModels;
  /**
   * Who is present in a world (travellers, docs/spatial.md#travellers): absent until presence is
   * composed, when the counts are 0.
   */
  presenceCounts?: ((worldId: string) => Promise<{ active: number; total: number }>) | undefined;
}

/** Someone present at a hosted world's door (rm_spatial_presence). */
export interface PresenceView {
  receiptId: string;
  worldId: string;
  subject: string;
  issuer: { instanceId: string; baseUrl: string };
  content: { name?: string; avatarAssetURI?: string; home?: string };
  admittedAt: string;
  renewedAt: string;
  expiresAt: string;
}

/** The spatial area's presence reads. */
export interface PresenceReadModels {
  /** A presence by its receipt id, live or expired. */
  presence(receiptId: string): Promise<PresenceView | null>;
  /** The subject's live presence (the one lasting longest), at one world when given. */
  livePresenceOf(subject: string, now: Date, worldId?: string): Promise<PresenceView | null>;
  /** Live presences at a world now, and how many subjects were ever present there. */
  presenceCounts(worldId: string, now: Date): Promise<{ active: number; total: number }>;
}

/**
 * Travellers' presence at this instance's hosted worlds (docs/spatial.md#travellers); composed even
 * where the worlds' own ports are not, as the door answers from the log's read model alone.
 */
export interface PresencePorts {
  read: PresenceReadModels;
}

/**
 * Presence and travellers: always composed. Travellers (docs/spatial.md#travellers): how long a
 * presentation this instance issues lives (SPATIAL_PRESENTATION_SECONDS) and how long a presence at its
 * door lasts unless renewed (SPATIAL_PRESENCE_SECONDS). Unset: the domain's defaults.
 */
export interface PresenceServices {
  presence: PresencePorts;
  config: { travellers?: { presentationSeconds: number; presenceSeconds: number } | undefined };
}

/** Hosted worlds; composed only where the spatial area is. */
export interface SpatialServices {
  spatial: SpatialPorts;
}
