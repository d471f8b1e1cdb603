// Inline projection of the spatial area: worlds (ours, and peers' public worlds imported through the
// feed), every graph revision, the view/portal index, tags and the primary world. A world's row holds
// its state as the domain folds it (evolveWorld), so the read model and the aggregate cannot disagree.
import {
  evolveWorld,
  initialWorldState,
  type SpatialEventData,
  type WorldEventData,
  type WorldState,
} from '@tributary/domain';
import type { ProjectedEvent, Projection, Queryable } from '../shared/projection.js';
import { allEventDefinitions } from '@tributary/domain';

const WORLD_TYPES = allEventDefinitions()
  .map((d) => d.type)
  .filter((t) => t.startsWith('world.'));

async function applyWorld(db: Queryable, e: ProjectedEvent): Promise<void> {
  const worldId = String(e.data.worldId);
  // A peer's world made private: it is no longer ours to show.
  if (e.type === 'world.unpublished' && e.imported) {
    // Only the origin's own world is dropped (never one of ours, nor another peer's, of that id).
    const dropped = await db.query(`DELETE FROM rm_spatial_worlds WHERE world_id = $1 AND origin = $2`, [
      worldId,
      e.origin,
    ]);
    if (dropped.rowCount) {
      await db.query(`DELETE FROM rm_spatial_parts WHERE world_id = $1`, [worldId]);
      await db.query(`DELETE FROM rm_spatial_graph_revisions WHERE world_id = $1`, [worldId]);
    }
    return;
  }
  const origin = e.imported ? e.origin : null;
  const { rows } = await db.query<{ state: WorldState; origin: string | null }>(
    `SELECT state, origin FROM rm_spatial_worlds WHERE world_id = $1`,
    [worldId],
  );
  // A world is its origin's alone: an event of another origin naming it (a peer reusing one of our
  // world ids, or another peer's) changes nothing.
  if (rows[0] && rows[0].origin !== origin) return;
  // An imported change of a world we never saw whole (its publication came before we peered) is skipped.
  if (
    !rows[0] &&
    e.type !== 'world.created' &&
    e.type !== 'world.private.created' &&
    e.type !== 'world.published'
  )
    return;
  const state = evolveWorld(rows[0]?.state ?? initialWorldState(), {
    type: e.type,
    streamVersion: e.streamVersion,
    data: e.data,
  });
  if (!state.exists || !state.worldId || !state.spatialId || !state.ownerAgentId) return;
  if (!rows[0] && e.imported) {
    // Nor can a peer's world take a graph id another world holds.
    const taken = await db.query(`SELECT 1 FROM rm_spatial_worlds WHERE spatial_id = $1`, [state.spatialId]);
    if (taken.rows.length > 0) return;
  }
  await db.query(
    `INSERT INTO rm_spatial_worlds (world_id, spatial_id, owner_agent_id, origin, visibility, state, graph_revision,
       created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8)
     ON CONFLICT (world_id) DO UPDATE SET visibility = EXCLUDED.visibility, state = EXCLUDED.state,
       graph_revision = EXCLUDED.graph_revision, updated_at = EXCLUDED.updated_at`,
    [
      state.worldId,
      state.spatialId,
      state.ownerAgentId,
      origin,
      state.visibility,
      JSON.stringify(state),
      state.graphRevision,
      e.occurredAt,
    ],
  );
  const isGraph = e.type === 'world.graph_saved' || e.type === 'world.private.graph_saved';
  if (isGraph || (e.type === 'world.published' && state.graphRevision > 0)) {
    const d = e.data as WorldEventData<'graph_saved'> | SpatialEventData<'world.published'>;
    await db.query(
      `INSERT INTO rm_spatial_graph_revisions (world_id, revision, spatial_id, nodes, saved_at)
       VALUES ($1, $2, $3, $4, $5) ON CONFLICT (world_id, revision) DO NOTHING`,
      [state.worldId, state.graphRevision, state.spatialId, JSON.stringify(d.nodes), e.occurredAt],
    );
  }
  const parts = [
    ...state.views.map((v) => ({ id: v.viewId, kind: 'view' })),
    ...state.portals.map((p) => ({ id: p.portalId, kind: 'portal' })),
  ];
  await db.query(`DELETE FROM rm_spatial_parts WHERE world_id = $1`, [state.worldId]);
  if (parts.length > 0)
    await db.query(
      `INSERT INTO rm_spatial_parts (part_id, kind, world_id)
       SELECT id, kind, $3 FROM unnest($1::text[], $2::text[]) AS p(id, kind)
       ON CONFLICT (part_id) DO NOTHING`,
      [parts.map((p) => p.id), parts.map((p) => p.kind), state.worldId],
    );
}

async function applyTag(db: Queryable, e: ProjectedEvent): Promise<void> {
  const origin = e.imported ? e.origin : '';
  if (e.type === 'spatial_tag.registered') {
    const d = e.data as SpatialEventData<'spatial_tag.registered'>;
    await db.query(
      `INSERT INTO rm_spatial_tags (scheme, tag_id, origin, owner_agent_id, target, label, registered_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (scheme, tag_id, origin) DO UPDATE SET owner_agent_id = EXCLUDED.owner_agent_id,
         target = EXCLUDED.target, label = EXCLUDED.label, registered_at = EXCLUDED.registered_at`,
      [d.scheme, d.tagId, origin, d.ownerAgentId, JSON.stringify(d.target), d.label ?? null, e.occurredAt],
    );
  } else {
    const d = e.data as SpatialEventData<'spatial_tag.removed'>;
    await db.query(`DELETE FROM rm_spatial_tags WHERE scheme = $1 AND tag_id = $2 AND origin = $3`, [
      d.scheme,
      d.tagId,
      origin,
    ]);
  }
}

export const spatialProjection: Projection = {
  name: 'spatial-worlds',
  mode: 'inline',
  tables: [
    'rm_spatial_worlds',
    'rm_spatial_graph_revisions',
    'rm_spatial_parts',
    'rm_spatial_tags',
    'rm_spatial_primary',
  ],
  // Peers' public worlds are folded beside ours.
  foldsImported: true,
  handles: [...WORLD_TYPES, 'spatial_tag.registered', 'spatial_tag.removed', 'spatial.primary_world_set'],
  async apply(db, e) {
    if (e.type.startsWith('world.')) return applyWorld(db, e);
    if (e.type.startsWith('spatial_tag.')) return applyTag(db, e);
    if (e.type === 'spatial.primary_world_set' && !e.imported) {
      const d = e.data as SpatialEventData<'spatial.primary_world_set'>;
      await db.query(
        `INSERT INTO rm_spatial_primary (singleton, world_id) VALUES (true, $1)
         ON CONFLICT (singleton) DO UPDATE SET world_id = EXCLUDED.world_id`,
        [d.worldId],
      );
    }
  },
};
