// A DNS zone in a map, behind the resolver port, for the custom-domain operations' unit tests (the
// integration tests use a real DNS server on loopback: test/src/harness/dns-server.ts). Test layer only.
import type { DnsLookup } from '@tributary/domain';
import type { CustomDomainPorts, DnsResolver } from '@tributary/services';
import { manualDnsProvider } from '@tributary/services';

export type RecordType = 'TXT' | 'CNAME' | 'A' | 'AAAA';

export interface MemoryDnsZone {
  resolver: DnsResolver;
  set(name: string, type: RecordType, values: string[]): void;
  remove(name: string, type?: RecordType): void;
  /** Every lookup answers a resolver failure while set. */
  failing: boolean;
}

export function memoryDnsZone(): MemoryDnsZone {
  const records = new Map<string, string[]>();
  const key = (name: string, type: RecordType) => `${type} ${name.toLowerCase()}`;
  const zone: MemoryDnsZone = {
    failing: false,
    set: (name, type, values) => void records.set(key(name, type), values),
    remove(name, type) {
      for (const t of type ? [type] : (['TXT', 'CNAME', 'A', 'AAAA'] as const)) records.delete(key(name, t));
    },
    resolver: {
      txt: async (name) => lookup(name, ['TXT']),
      cname: async (name) => lookup(name, ['CNAME']),
      addresses: async (name) => lookup(name, ['A', 'AAAA']),
    },
  };
  const lookup = (name: string, types: RecordType[]): DnsLookup => {
    if (zone.failing) return { kind: 'error', detail: 'ETIMEOUT' };
    const found = types.flatMap((t) => records.get(key(name, t)) ?? []);
    return found.length > 0 ? { kind: 'records', records: found } : { kind: 'none' };
  };
  return zone;
}

/** Where the unit instance's bound names point. */
export const UNIT_SITE_HOST = 'unit.tributary.test';
export const UNIT_PUBLIC_ADDRESSES = ['203.0.113.10', '2001:db8::10'];

export function memoryDomainPorts(zone: MemoryDnsZone): CustomDomainPorts {
  return {
    resolver: zone.resolver,
    providers: [manualDnsProvider],
    settings: {
      instanceHosts: [UNIT_SITE_HOST],
      sitesDomain: 'sites.unit.tributary.test',
      targetHost: UNIT_SITE_HOST,
      publicAddresses: UNIT_PUBLIC_ADDRESSES,
      holdSeconds: 7 * 24 * 3600,
    },
  };
}
