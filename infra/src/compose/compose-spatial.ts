// The spatial area's ports: its read models over the pool. Presence counts are added by the travellers'
// part (docs/spatial.md#travellers) when it is composed.
import { createSpatialReadModels, type Queryable } from '@tributary/projections';
import type { SpatialPorts } from '@tributary/services';

export function composeSpatial(o: { pool: Queryable }): SpatialPorts {
  return { read: createSpatialReadModels(o.pool) };
}
