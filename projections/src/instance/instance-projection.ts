import type { EventData } from '@tributary/domain';
import type { Projection } from '../shared/projection.js';

export const instanceProjection: Projection = {
  name: 'instance',
  mode: 'inline',
  tables: ['rm_instance', 'rm_instance_keys', 'rm_instance_controllers'],
  handles: [
    'instance.initialized',
    'instance.key_added',
    'instance.key_rotated',
    'instance.key_revoked',
    'instance.controller_granted',
    'instance.controller_revoked',
  ],
  // A peer's instance and key events are its own, stored verbatim; this table is about us: no foldsImported.
  async apply(db, e) {
    switch (e.type) {
      case 'instance.initialized': {
        const d = e.data as EventData<'instance.initialized'>;
        await db.query(
          `INSERT INTO rm_instance (instance_id, role, name, base_url, primary_agent_id) VALUES ($1, $2, $3, $4, $5)`,
          [d.instanceId, d.role, d.name, d.baseUrl, d.primaryAgentId],
        );
        await db.query(
          `INSERT INTO rm_instance_keys (key_id, origin, public_key, valid_from) VALUES ($1, $2, $3, $4)`,
          [d.signingKey.keyId, e.origin, d.signingKey.publicKey, d.signingKey.validFrom],
        );
        return;
      }
      case 'instance.key_added': {
        const d = e.data as EventData<'instance.key_added'>;
        await db.query(
          `INSERT INTO rm_instance_keys (key_id, origin, public_key, valid_from) VALUES ($1, $2, $3, $4)`,
          [d.keyId, e.origin, d.publicKey, d.validFrom],
        );
        return;
      }
      case 'instance.key_rotated': {
        const d = e.data as EventData<'instance.key_rotated'>;
        await db.query(`UPDATE rm_instance_keys SET valid_until = $2 WHERE key_id = $1`, [
          d.previousKeyId,
          d.previousValidUntil,
        ]);
        await db.query(
          `INSERT INTO rm_instance_keys (key_id, origin, public_key, valid_from) VALUES ($1, $2, $3, $4)`,
          [d.keyId, e.origin, d.publicKey, d.validFrom],
        );
        return;
      }
      case 'instance.key_revoked': {
        const d = e.data as EventData<'instance.key_revoked'>;
        await db.query(`UPDATE rm_instance_keys SET revoked_after = $2 WHERE key_id = $1`, [
          d.keyId,
          d.revokedAfter,
        ]);
        return;
      }
      case 'instance.controller_granted': {
        const d = e.data as EventData<'instance.controller_granted'>;
        await db.query(
          `INSERT INTO rm_instance_controllers (account_id, agent_id, granted_at) VALUES ($1, $2, $3)`,
          [d.accountId, d.agentId, e.occurredAt],
        );
        return;
      }
      case 'instance.controller_revoked': {
        const d = e.data as EventData<'instance.controller_revoked'>;
        await db.query(`DELETE FROM rm_instance_controllers WHERE account_id = $1`, [d.accountId]);
        return;
      }
    }
  },
};
