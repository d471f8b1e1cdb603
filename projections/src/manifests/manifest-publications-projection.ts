// rm_manifest_publications: the agents whose owners publish their universal manifest.
import type { EventData } from '@tributary/domain';
import { runStatements, type Projection, type Queryable } from '../shared/projection.js';

export const manifestPublicationsProjection: Projection = {
  name: 'manifest-publications',
  mode: 'inline',
  tables: ['rm_manifest_publications'],
  handles: ['manifest.publication_set'],
  statements(e) {
    const d = e.data as EventData<'manifest.publication_set'>;
    return [
      {
        text: `INSERT INTO rm_manifest_publications (agent_id, published, updated_at) VALUES ($1, $2, $3)
               ON CONFLICT (agent_id) DO UPDATE SET published = EXCLUDED.published, updated_at = EXCLUDED.updated_at`,
        values: [d.agentId, d.published, e.occurredAt],
      },
    ];
  },
  async apply(db, e) {
    await runStatements(db, manifestPublicationsProjection.statements!(e)!);
  },
};

/** The manifests area's queries (services/src/ports/read-models.ts `ManifestReadModels`). */
export function createManifestReadModels(db: Queryable) {
  return {
    async agentPublication(agentId: string): Promise<{ published: boolean; updatedAt: string } | null> {
      const { rows } = await db.query<{ published: boolean; updated_at: Date }>(
        'SELECT published, updated_at FROM rm_manifest_publications WHERE agent_id = $1',
        [agentId],
      );
      const r = rows[0];
      return r ? { published: r.published, updatedAt: r.updated_at.toISOString() } : null;
    },
  };
}
