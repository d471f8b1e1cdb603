// The spatial area's ports: its read models over the pool, and the presence counts /wow/world shows
// (travellers, docs/spatial.md#presence), counted at the instance's clock.
import { createPresenceReadModels, createSpatialReadModels, type Queryable } from '@tributary/projections';
import type { Clock, SpatialPorts } from '@tributary/services';

export function composeSpatial(o: { pool: Queryable; clock: Clock }): SpatialPorts {
  const presence = createPresenceReadModels(o.pool);
  return {
    read: createSpatialReadModels(o.pool),
    presenceCounts: (worldId) => presence.presenceCounts(worldId, o.clock.now()),
  };
}
