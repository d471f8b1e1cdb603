// Query functions over rm_spatial_*; shapes match the services' SpatialReadModels.
import type { SpatialNode, TagScheme, TagTarget, WorldState } from '@tributary/domain';
import type { Queryable } from '../shared/projection.js';

interface WorldRow {
  world_id: string;
  spatial_id: string;
  owner_agent_id: string;
  origin: string | null;
  visibility: 'public' | 'private';
  state: WorldState;
  graph_revision: number;
  created_at: Date;
  updated_at: Date;
}
const toWorld = (r: WorldRow) => ({
  worldId: r.world_id,
  spatialId: r.spatial_id,
  ownerAgentId: r.owner_agent_id,
  origin: r.origin,
  visibility: r.visibility,
  state: r.state,
  graphRevision: r.graph_revision,
  createdAt: r.created_at.toISOString(),
  updatedAt: r.updated_at.toISOString(),
});

interface TagRow {
  scheme: TagScheme;
  tag_id: string;
  origin: string;
  owner_agent_id: string;
  target: TagTarget;
  label: string | null;
  registered_at: Date;
}

export function createSpatialReadModels(db: Queryable) {
  const one = async (where: string, value: string) => {
    const { rows } = await db.query<WorldRow>(`SELECT * FROM rm_spatial_worlds WHERE ${where} = $1`, [value]);
    return rows[0] ? toWorld(rows[0]) : null;
  };
  return {
    world: (worldId: string) => one('world_id', worldId),
    worldBySpatialId: (spatialId: string) => one('spatial_id', spatialId),
    async worldVersionBySpatialId(spatialId: string) {
      const { rows } = await db.query<Pick<WorldRow, 'world_id' | 'origin' | 'visibility' | 'updated_at'>>(
        `SELECT world_id, origin, visibility, updated_at FROM rm_spatial_worlds WHERE spatial_id = $1`,
        [spatialId],
      );
      const r = rows[0];
      return r
        ? {
            worldId: r.world_id,
            origin: r.origin,
            visibility: r.visibility,
            updatedAt: r.updated_at.toISOString(),
          }
        : null;
    },
    async worldsOf(ownerAgentId: string) {
      const { rows } = await db.query<WorldRow>(
        `SELECT * FROM rm_spatial_worlds WHERE owner_agent_id = $1 AND origin IS NULL ORDER BY created_at, world_id`,
        [ownerAgentId],
      );
      return rows.map(toWorld);
    },
    async publicWorlds(limit: number) {
      const { rows } = await db.query<WorldRow>(
        `SELECT * FROM rm_spatial_worlds WHERE origin IS NULL AND visibility = 'public'
         ORDER BY created_at, world_id LIMIT $1`,
        [limit],
      );
      return rows.map(toWorld);
    },
    async part(partId: string) {
      const { rows } = await db.query<{ kind: 'view' | 'portal'; world_id: string }>(
        `SELECT kind, world_id FROM rm_spatial_parts WHERE part_id = $1`,
        [partId],
      );
      return rows[0] ? { kind: rows[0].kind, worldId: rows[0].world_id } : null;
    },
    async graphRevision(worldId: string, revision: number) {
      const { rows } = await db.query<{ revision: number; nodes: SpatialNode[]; saved_at: Date }>(
        `SELECT revision, nodes, saved_at FROM rm_spatial_graph_revisions WHERE world_id = $1 AND revision = $2`,
        [worldId, revision],
      );
      return rows[0]
        ? { revision: rows[0].revision, nodes: rows[0].nodes, savedAt: rows[0].saved_at.toISOString() }
        : null;
    },
    async tag(scheme: TagScheme, tagId: string) {
      const { rows } = await db.query<TagRow>(
        `SELECT * FROM rm_spatial_tags WHERE scheme = $1 AND tag_id = $2 ORDER BY origin <> '', registered_at`,
        [scheme, tagId],
      );
      return rows.map((r) => ({
        scheme: r.scheme,
        tagId: r.tag_id,
        origin: r.origin === '' ? null : r.origin,
        ownerAgentId: r.owner_agent_id,
        target: r.target,
        label: r.label,
        registeredAt: r.registered_at.toISOString(),
      }));
    },
    async primaryWorldId() {
      const { rows } = await db.query<{ world_id: string | null }>(`SELECT world_id FROM rm_spatial_primary`);
      return rows[0]?.world_id ?? null;
    },
  };
}
