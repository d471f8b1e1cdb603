// Query functions over rm_builder_addresses and rm_builder_address_instances; shapes match the services'
// SiteAddressReadModels port.
import type { Queryable } from '../shared/projection.js';
import { iso } from '../shared/iso.js';

interface AddressRow {
  label: string;
  site_id: string;
  owner_agent_id: string | null;
  instance_id: string | null;
  state: 'claimed' | 'released' | 'registered' | 'deregistered';
  claimed_at: Date;
  released_at: Date | null;
  hold_until: Date | null;
}
const toAddress = (r: AddressRow) => ({
  label: r.label,
  siteId: r.site_id,
  ownerAgentId: r.owner_agent_id,
  instanceId: r.instance_id,
  state: r.state,
  claimedAt: r.claimed_at.toISOString(),
  releasedAt: iso(r.released_at),
  holdUntil: iso(r.hold_until),
});

export function createAddressReadModels(db: Queryable) {
  return {
    async addressOfSite(siteId: string) {
      const { rows } = await db.query<AddressRow>(
        `SELECT * FROM rm_builder_addresses WHERE site_id = $1 AND state = 'claimed'`,
        [siteId],
      );
      return rows[0] ? toAddress(rows[0]) : null;
    },
    async addresses(labels: readonly string[]) {
      if (labels.length === 0) return [];
      const { rows } = await db.query<AddressRow>(
        `SELECT * FROM rm_builder_addresses WHERE label = ANY($1::text[]) ORDER BY label`,
        [labels],
      );
      return rows.map(toAddress);
    },
    async addressInstanceHost(instanceId: string) {
      const { rows } = await db.query<{ hostname: string }>(
        `SELECT hostname FROM rm_builder_address_instances WHERE instance_id = $1`,
        [instanceId],
      );
      return rows[0]?.hostname ?? null;
    },
  };
}
