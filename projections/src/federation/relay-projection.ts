// Origins known through a relay (rm_relay_origins), the keys pinned for them (rm_relay_origin_keys), and
// this instance's choice of which origins it takes relayed events from (rm_relay_following).
import type { OriginKeysLearnedData, RelayFollowing } from '@tributary/domain';
import type { Projection } from '../shared/projection.js';

export const relayProjection: Projection = {
  name: 'relay',
  mode: 'inline',
  tables: ['rm_relay_origins', 'rm_relay_origin_keys', 'rm_relay_following'],
  handles: ['federation.origin_keys_learned', 'federation.relay_following_set'],
  async apply(db, e) {
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
        `INSERT INTO rm_relay_origin_keys (origin, key_id, public_key, valid_from, valid_until, source, pinned_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (origin, key_id) DO UPDATE SET valid_until = $5`,
        [d.origin, k.keyId, k.publicKey, k.validFrom, k.validUntil, d.source, e.occurredAt],
      );
  },
};
