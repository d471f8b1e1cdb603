// Inline projection of the address streams (address-label-<label>, address-instance-<id>) into
// rm_builder_addresses and rm_builder_address_instances, in the append's own transaction, so a claim
// that returned is what the next read (and the site server's index) sees. Statements only. Claims
// imported from a peer are not folded (no foldsImported): the peer serves its own addresses (docs/builder.md#addresses).
import type { AddressEventData as EventData } from '@tributary/domain';
import {
  runStatements,
  type ProjectedEvent,
  type Projection,
  type SqlStatement,
} from '../shared/projection.js';

const UPSERT_HOLDER = `INSERT INTO rm_builder_addresses
    (label, site_id, owner_agent_id, instance_id, state, claimed_at, released_at, hold_until)
  VALUES ($1, $2, $3, $4, $5, $6, NULL, NULL)
  ON CONFLICT (label) DO UPDATE SET site_id = EXCLUDED.site_id, owner_agent_id = EXCLUDED.owner_agent_id,
    instance_id = EXCLUDED.instance_id, state = EXCLUDED.state, claimed_at = EXCLUDED.claimed_at,
    released_at = NULL, hold_until = NULL`;
const RELEASE = `UPDATE rm_builder_addresses SET state = $2, released_at = $3, hold_until = $4 WHERE label = $1`;

function addressStatements(e: ProjectedEvent): SqlStatement[] {
  switch (e.type) {
    case 'site.address_claimed': {
      const d = e.data as EventData<'site.address_claimed'>;
      return [
        { text: UPSERT_HOLDER, values: [d.label, d.siteId, d.ownerAgentId, null, 'claimed', e.occurredAt] },
      ];
    }
    case 'site.address_released': {
      const d = e.data as EventData<'site.address_released'>;
      return [{ text: RELEASE, values: [d.label, 'released', d.releasedAt, d.holdUntil] }];
    }
    case 'site.address_registered': {
      const d = e.data as EventData<'site.address_registered'>;
      return [
        { text: UPSERT_HOLDER, values: [d.label, d.siteId, null, d.instanceId, 'registered', e.occurredAt] },
      ];
    }
    case 'site.address_deregistered': {
      const d = e.data as EventData<'site.address_deregistered'>;
      return [{ text: RELEASE, values: [d.label, 'deregistered', d.releasedAt, d.holdUntil] }];
    }
    case 'site.address_instance_recorded': {
      const d = e.data as EventData<'site.address_instance_recorded'>;
      return [
        {
          text: `INSERT INTO rm_builder_address_instances (instance_id, hostname, recorded_at) VALUES ($1, $2, $3)
                 ON CONFLICT (instance_id) DO UPDATE SET hostname = EXCLUDED.hostname, recorded_at = EXCLUDED.recorded_at`,
          values: [d.instanceId, d.hostname, e.occurredAt],
        },
      ];
    }
    default:
      return [];
  }
}

export const builderAddressesProjection: Projection = {
  name: 'builder-addresses',
  mode: 'inline',
  tables: ['rm_builder_addresses', 'rm_builder_address_instances'],
  handles: [
    'site.address_claimed',
    'site.address_released',
    'site.address_registered',
    'site.address_deregistered',
    'site.address_instance_recorded',
  ],
  statements: addressStatements,
  apply: (db, e) => runStatements(db, addressStatements(e)),
};
