// rm_spatial_presence: who is present at which hosted world, until when (docs/spatial.md#presence).
import type { EventData } from '@tributary/domain';
import { runStatements, type Projection, type Queryable } from '../shared/projection.js';

export const presenceProjection: Projection = {
  name: 'spatial-presence',
  mode: 'inline',
  tables: ['rm_spatial_presence'],
  handles: ['presence.admitted'],
  statements(e) {
    const d = e.data as EventData<'presence.admitted'>;
    return [
      {
        // A renewal names the live presence's receipt: it moves the expiry and takes what was shared now.
        text: `INSERT INTO rm_spatial_presence (receipt_id, world_id, subject, issuer_instance_id, issuer_base_url,
                 content, admitted_at, renewed_at, expires_at)
               VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $7, $8)
               ON CONFLICT (receipt_id) DO UPDATE SET content = EXCLUDED.content,
                 renewed_at = EXCLUDED.renewed_at, expires_at = EXCLUDED.expires_at`,
        values: [
          d.receiptId,
          d.worldId,
          d.subject,
          d.issuerInstanceId,
          d.issuerBaseUrl,
          JSON.stringify(d.content),
          e.occurredAt,
          d.expiresAt,
        ],
      },
    ];
  },
  async apply(db, e) {
    await runStatements(db, presenceProjection.statements!(e)!);
  },
};

interface PresenceRow {
  receipt_id: string;
  world_id: string;
  subject: string;
  issuer_instance_id: string;
  issuer_base_url: string;
  content: Record<string, string>;
  admitted_at: Date;
  renewed_at: Date;
  expires_at: Date;
}
const toPresence = (r: PresenceRow) => ({
  receiptId: r.receipt_id,
  worldId: r.world_id,
  subject: r.subject,
  issuer: { instanceId: r.issuer_instance_id, baseUrl: r.issuer_base_url },
  content: r.content,
  admittedAt: r.admitted_at.toISOString(),
  renewedAt: r.renewed_at.toISOString(),
  expiresAt: r.expires_at.toISOString(),
});

/** The presence queries (services/src/ports/read-models.ts `PresenceReadModels`). */
export function createPresenceReadModels(db: Queryable) {
  return {
    async presence(receiptId: string) {
      const { rows } = await db.query<PresenceRow>(
        'SELECT * FROM rm_spatial_presence WHERE receipt_id = $1',
        [receiptId],
      );
      return rows[0] ? toPresence(rows[0]) : null;
    },
    async livePresenceOf(subject: string, now: Date, worldId?: string) {
      const { rows } = await db.query<PresenceRow>(
        `SELECT * FROM rm_spatial_presence WHERE subject = $1 AND expires_at > $2 AND ($3::text IS NULL OR world_id = $3)
         ORDER BY expires_at DESC LIMIT 1`,
        [subject, now, worldId ?? null],
      );
      return rows[0] ? toPresence(rows[0]) : null;
    },
    async presenceCounts(worldId: string, now: Date) {
      const { rows } = await db.query<{ active: string; total: string }>(
        `SELECT count(*) FILTER (WHERE expires_at > $2) AS active, count(DISTINCT subject) AS total
         FROM rm_spatial_presence WHERE world_id = $1`,
        [worldId, now],
      );
      return { active: Number(rows[0]?.active ?? 0), total: Number(rows[0]?.total ?? 0) };
    },
  };
}
