// The address read models, derived from the in-memory log by the rules of
// projections/src/builder/addresses-projection.ts (rm_builder_addresses, rm_builder_address_instances).
// Test layer only.
import type { AddressEventData as EventData } from '@tributary/domain';
import type { SiteAddressReadModels, SiteAddressView, StoredEvent } from '@tributary/services';

interface AddressFolded {
  labels: Map<string, SiteAddressView>;
  hosts: Map<string, string>;
}

export function inMemoryAddressReadModels(log: { all(): readonly StoredEvent[] }): SiteAddressReadModels {
  const folded = () => foldAddresses(log.all());
  return {
    async addressOfSite(siteId) {
      const a = [...folded().labels.values()].find((x) => x.siteId === siteId && x.state === 'claimed');
      return a ? { ...a } : null;
    },
    async addresses(labels) {
      const f = folded();
      return [...new Set(labels)].sort().flatMap((l) => (f.labels.has(l) ? [{ ...f.labels.get(l)! }] : []));
    },
    async addressInstanceHost(instanceId) {
      return folded().hosts.get(instanceId) ?? null;
    },
  };
}

function foldAddresses(events: readonly StoredEvent[]): AddressFolded {
  const f: AddressFolded = { labels: new Map(), hosts: new Map() };
  const holder = (
    label: string,
    siteId: string,
    ownerAgentId: string | null,
    instanceId: string | null,
    state: SiteAddressView['state'],
    at: string,
  ) =>
    f.labels.set(label, {
      label,
      siteId,
      ownerAgentId,
      instanceId,
      state,
      claimedAt: at,
      releasedAt: null,
      holdUntil: null,
    });
  for (const e of events) {
    // Only this instance's own address streams: imported events sit under `<origin>/<stream>`.
    if (!e.stream.startsWith('address-')) continue;
    switch (e.type) {
      case 'site.address_claimed': {
        const d = e.data as EventData<'site.address_claimed'>;
        holder(d.label, d.siteId, d.ownerAgentId, null, 'claimed', e.occurredAt);
        break;
      }
      case 'site.address_registered': {
        const d = e.data as EventData<'site.address_registered'>;
        holder(d.label, d.siteId, null, d.instanceId, 'registered', e.occurredAt);
        break;
      }
      case 'site.address_released':
      case 'site.address_deregistered': {
        const d = e.data as EventData<'site.address_released'>;
        const a = f.labels.get(d.label);
        if (a)
          Object.assign(a, {
            state: e.type === 'site.address_released' ? 'released' : 'deregistered',
            releasedAt: d.releasedAt,
            holdUntil: d.holdUntil,
          });
        break;
      }
      case 'site.address_instance_recorded': {
        const d = e.data as EventData<'site.address_instance_recorded'>;
        f.hosts.set(d.instanceId, d.hostname);
        break;
      }
    }
  }
  return f;
}
