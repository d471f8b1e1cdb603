// Origins known through a relay (rm_relay_origins), the keys pinned for them (rm_relay_origin_keys), and
// this instance's choice of which origins it takes relayed events from (rm_relay_following).
import type { EventData, OriginKeysLearnedData, RelayFollowing } from '@tributary/domain';
import type { ProjectedEvent, Projection, Queryable } from '../shared/projection.js';

export const relayProjection: Projection = {
  name: 'relay',
  mode: 'inline',
  tables: ['rm_relay_origins', 'rm_relay_origin_keys', 'rm_relay_following'],
  // A relayed origin's own key announcements are imported events.
  foldsImported: true,
  handles: [
    'federation.origin_keys_learned',
    'federation.relay_following_set',
    // A relayed origin announces its key changes in its feed, signed with a key pinned here (the import
    // checked it): its new key is adopted, a revocation recorded, as the peers projection does for peers.
    'instance.key_rotated',
    'instance.key_revoked',
  ],
  async apply(db, e) {
    if (e.type === 'instance.key_rotated' || e.type === 'instance.key_revoked') {
      if (e.imported && e.stream === 'instance') await adoptAnnouncedKey(db, e);
      return;
    }
    if (e.type === 'federation.relay_following_set') {
      const d = e.data as RelayFollowing;
      await db.query(
        `INSERT INTO rm_relay_following (id, mode, origins, version, updated_at) VALUES (true, $1, $2, $3, $4)
         ON CONFLICT (id) DO UPDATE SET mode = $1, origins = $2, version = $3, updated_at = $4`,
        [d.mode, d.origins, e.streamVersion, e.occurredAt],
      );
      return;
    }
    const d = e.data as OriginKeysLearnedData;
    await db.query(
      `INSERT INTO rm_relay_origins (origin, name, role, base_url, version, learned_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $6)
       ON CONFLICT (origin) DO UPDATE SET name = $2, role = $3, base_url = $4, version = $5, updated_at = $6`,
      [d.origin, d.name, d.role, d.baseUrl, e.streamVersion, e.occurredAt],
    );
    for (const k of d.keys)
      await db.query(
        // A key first seen already revoked (its manifest says so) is pinned revoked.
        `INSERT INTO rm_relay_origin_keys (origin, key_id, public_key, valid_from, valid_until, source, pinned_at, revoked_after)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
         ON CONFLICT (origin, key_id) DO UPDATE SET valid_until = $5,
           revoked_after = coalesce($8, rm_relay_origin_keys.revoked_after)`,
        [
          d.origin,
          k.keyId,
          k.publicKey,
          k.validFrom,
          k.validUntil,
          d.source,
          e.occurredAt,
          k.revokedAfter ?? null,
        ],
      );
  },
};

/** Only for an origin known here through a relay (a registered peer's keys are the peers projection's). */
async function adoptAnnouncedKey(db: Queryable, e: ProjectedEvent) {
  if (e.type === 'instance.key_rotated') {
    const d = e.data as EventData<'instance.key_rotated'>;
    // The previous key's window closes at the announced time (never reopened by a later, longer one).
    await db.query(
      `UPDATE rm_relay_origin_keys SET valid_until = CASE
         WHEN valid_until IS NULL OR valid_until::timestamptz > $3::timestamptz THEN $3::text ELSE valid_until END
       WHERE origin = $1 AND key_id = $2`,
      [e.origin, d.previousKeyId, d.previousValidUntil],
    );
    await db.query(
      `INSERT INTO rm_relay_origin_keys (origin, key_id, public_key, valid_from, valid_until, source, pinned_at)
       SELECT $1, $2, $3, $4, NULL, 'announced', $5 WHERE EXISTS (SELECT 1 FROM rm_relay_origins WHERE origin = $1)
       ON CONFLICT (origin, key_id) DO NOTHING`,
      [e.origin, d.keyId, d.publicKey, d.validFrom, e.occurredAt],
    );
    return;
  }
  const d = e.data as EventData<'instance.key_revoked'>;
  await db.query(
    `UPDATE rm_relay_origin_keys SET revoked_after = CASE
       WHEN revoked_after IS NULL OR revoked_after::timestamptz > $3::timestamptz THEN $3::text ELSE revoked_after END
     WHERE origin = $1 AND key_id = $2`,
    [e.origin, d.keyId, d.revokedAfter],
  );
}
