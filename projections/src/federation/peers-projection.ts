// The peer registry read models: rm_peers (one row per peer) and rm_peer_keys (every key a peer has
// had, with its validity window).
import type { PeerKeyRotatedData, PeerRegisteredData } from '@tributary/domain';
import type { Projection } from '../shared/projection.js';

export const peersProjection: Projection = {
  name: 'peers',
  mode: 'inline',
  tables: ['rm_peers', 'rm_peer_keys'],
  handles: [
    'peer.registered',
    'peer.key_rotated',
    'peer.secret_rotated',
    'peer.base_url_changed',
    'peer.blocked',
    'peer.unblocked',
  ],
  async apply(db, e) {
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
