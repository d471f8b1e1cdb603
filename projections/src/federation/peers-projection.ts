// The peer registry read models: rm_peers (one row per peer) and rm_peer_keys (every key a peer has
// had, with its validity window).
import type { EventData, PeerKeyRotatedData, PeerRegisteredData } from '@tributary/domain';
import type { ProjectedEvent, Projection, Queryable } from '../shared/projection.js';

export const peersProjection: Projection = {
  name: 'peers',
  mode: 'inline',
  tables: ['rm_peers', 'rm_peer_keys'],
  // A peer's own key announcements are imported events.
  foldsImported: true,
  handles: [
    'peer.registered',
    'peer.key_rotated',
    'peer.secret_rotated',
    'peer.base_url_changed',
    'peer.blocked',
    'peer.unblocked',
    // A peer announces its own key changes in its feed, signed with a key we already trust (the import
    // checked it): a registered peer's new key is adopted, a revocation recorded.
    'instance.key_rotated',
    'instance.key_revoked',
  ],
  async apply(db, e) {
    if (e.type === 'instance.key_rotated' || e.type === 'instance.key_revoked') {
      if (e.imported && e.stream === 'instance') await adoptAnnouncedKey(db, e);
      return;
    }
    const peerId = e.stream.slice('peer-'.length);
    const d = e.data as Record<string, unknown>;
    switch (e.type) {
      case 'peer.registered': {
        const r = d as PeerRegisteredData;
        await db.query(
          `INSERT INTO rm_peers (peer_id, agent_id, name, base_url, role, secret_hash, registered_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $7)`,
          [r.peerId, r.agentId, r.name, r.baseUrl, r.role, r.secretHash, e.occurredAt],
        );
        for (const k of r.previousKeys ?? [])
          await db.query(
            `INSERT INTO rm_peer_keys (peer_id, key_id, public_key, valid_from, valid_until, revoked_after)
             VALUES ($1, $2, $3, $4, $5, $6)`,
            [r.peerId, k.keyId, k.publicKey, k.validFrom, k.validUntil, k.revokedAfter ?? null],
          );
        await db.query(
          `INSERT INTO rm_peer_keys (peer_id, key_id, public_key, valid_from) VALUES ($1, $2, $3, $4)`,
          [r.peerId, r.keyId, r.publicKey, r.validFrom],
        );
        return;
      }
      case 'peer.key_rotated': {
        const r = d as PeerKeyRotatedData;
        await db.query(`UPDATE rm_peer_keys SET valid_until = $3 WHERE peer_id = $1 AND key_id = $2`, [
          peerId,
          r.retiredKeyId,
          r.retiredAt,
        ]);
        await db.query(
          `INSERT INTO rm_peer_keys (peer_id, key_id, public_key, valid_from) VALUES ($1, $2, $3, $4)`,
          [peerId, r.keyId, r.publicKey, r.validFrom],
        );
        break;
      }
      case 'peer.secret_rotated':
        await db.query(`UPDATE rm_peers SET secret_hash = $2 WHERE peer_id = $1`, [peerId, d.secretHash]);
        break;
      case 'peer.base_url_changed':
        await db.query(`UPDATE rm_peers SET base_url = $2 WHERE peer_id = $1`, [peerId, d.baseUrl]);
        break;
      case 'peer.blocked':
        await db.query(`UPDATE rm_peers SET blocked = true, blocked_reason = $2 WHERE peer_id = $1`, [
          peerId,
          d.reason,
        ]);
        break;
      case 'peer.unblocked':
        await db.query(`UPDATE rm_peers SET blocked = false, blocked_reason = NULL WHERE peer_id = $1`, [
          peerId,
        ]);
        break;
    }
    await db.query(`UPDATE rm_peers SET updated_at = $2 WHERE peer_id = $1`, [peerId, e.occurredAt]);
  },
};

async function adoptAnnouncedKey(db: Queryable, e: ProjectedEvent): Promise<void> {
  if (e.type === 'instance.key_rotated') {
    const d = e.data as EventData<'instance.key_rotated'>;
    // The previous key's window closes at the announced time (never reopened by a later, longer one).
    await db.query(
      `UPDATE rm_peer_keys SET valid_until = LEAST(coalesce(valid_until, $3::timestamptz), $3::timestamptz)
       WHERE peer_id = $1 AND key_id = $2`,
      [e.origin, d.previousKeyId, d.previousValidUntil],
    );
    await db.query(
      `INSERT INTO rm_peer_keys (peer_id, key_id, public_key, valid_from)
       SELECT $1, $2, $3, $4 WHERE EXISTS (SELECT 1 FROM rm_peers WHERE peer_id = $1)
       ON CONFLICT (peer_id, key_id) DO NOTHING`,
      [e.origin, d.keyId, d.publicKey, d.validFrom],
    );
  } else {
    const d = e.data as EventData<'instance.key_revoked'>;
    await db.query(
      `UPDATE rm_peer_keys SET revoked_after = LEAST(coalesce(revoked_after, $3::timestamptz), $3::timestamptz)
       WHERE peer_id = $1 AND key_id = $2`,
      [e.origin, d.keyId, d.revokedAfter],
    );
  }
  await db.query(`UPDATE rm_peers SET updated_at = $2 WHERE peer_id = $1`, [e.origin, e.occurredAt]);
}
