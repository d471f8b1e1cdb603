// The spatial area's ports: its read models over the pool, and the presence counts /wow/world shows
// (travellers, docs/spatial.md#presence), counted at the instance's clock.
import { defineArea } from './area.js';
import { createPresenceReadModels, createSpatialReadModels, type Queryable } from '@tributary/projections';
import type { Clock, SpatialPorts } from '@tributary/services';

export function composeSpatial(o: { pool: Queryable; clock: Clock }): SpatialPorts {
  const presence = createPresenceReadModels(o.pool);
  return {
    read: createSpatialReadModels(o.pool),
    presenceCounts: (worldId) => presence.presenceCounts(worldId, o.clock.now()),
  };
}

/** Hosted worlds, and the presence reads beside them. */
export const spatialArea = defineArea((ctx) => ({
  services: { spatial: composeSpatial(ctx), presence: { read: ctx.read.presence } },
  // Travellers (docs/spatial.md#travellers): a presentation's life, and a presence's unless renewed.
  config: {
    travellers: {
      presentationSeconds: ctx.config.SPATIAL_PRESENTATION_SECONDS,
      presenceSeconds: ctx.config.SPATIAL_PRESENCE_SECONDS,
    },
  },
}));
