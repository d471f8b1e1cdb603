// Which addresses an outbound call may reach. Public unicast addresses always; nothing else unless the
// operator allows it (OUTBOUND_ALLOWED_ADDRESSES): in production loopback, private, link-local (cloud
// metadata), CGNAT, multicast, documentation and other special-purpose ranges are refused. An IPv4-mapped
// IPv6 address is judged by the IPv4 address inside (`::ffff:127.0.0.1` is loopback); the deprecated
// IPv4-compatible form (`::a.b.c.d`) is never public. Host names are resolved by the caller (outbound-http.ts) and every address checked.
import { BlockList, isIP } from 'node:net';

/** Ranges that are never reached in production (RFC 6890 special-purpose, private, loopback, link-local…). */
const NON_PUBLIC = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  NON_PUBLIC.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 96], // unspecified, loopback and the deprecated IPv4-compatible form
  ['64:ff9b::', 96], // NAT64: reaches IPv4 space we cannot see through
  ['64:ff9b:1::', 48], // local-use NAT64
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16], // 6to4
  ['3fff::', 20], // documentation (RFC 9637)
  ['5f00::', 16], // SRv6 SIDs
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  NON_PUBLIC.addSubnet(net, prefix, 'ipv6');

/** The IPv4 address inside an IPv4-mapped IPv6 address (`::ffff:a.b.c.d`, `::ffff:7f00:1`). */
function embeddedIPv4(address: string): string | undefined {
  const dotted = /^(?:0{0,4}:){0,5}:?ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (dotted) return dotted;
  const hex = /^(?:0{0,4}:){0,5}:?ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (!hex) return undefined;
  const hi = parseInt(hex[1]!, 16);
  const lo = parseInt(hex[2]!, 16);
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/** Removes the brackets of an IPv6 URL host (`[::1]` → `::1`). */
export const bareHost = (hostname: string) => hostname.replace(/^\[(.*)\]$/, '$1');

/** Whether an IP address literal is a public unicast address. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !NON_PUBLIC.check(address, 'ipv4');
  if (family !== 6) return false;
  const v4 = embeddedIPv4(address);
  if (v4 !== undefined) return isPublicAddress(v4);
  return !NON_PUBLIC.check(address, 'ipv6');
}

export interface AddressPolicy {
  /** Whether an outbound connection may go to this IP address literal. */
  allows(address: string): boolean;
}

/**
 * Parses `127.0.0.1`, `10.0.0.0/8`, `::1`, `fc00::/7` (comma separated, or a list). Throws an Error
 * naming the entry that is not an address or a prefix.
 */
export function parseAddressList(entries: string | readonly string[]): BlockList {
  const list = new BlockList();
  const items = typeof entries === 'string' ? entries.split(',') : entries;
  for (const raw of items) {
    const entry = raw.trim();
    if (!entry) continue;
    const [address = '', prefixText] = entry.split('/');
    const family = isIP(address);
    const max = family === 4 ? 32 : 128;
    const prefix = prefixText === undefined ? max : Number(prefixText);
    if (!family || !/^\d+$/.test(prefixText ?? String(max)) || prefix > max)
      throw new Error(`not an IP address or prefix: ${entry}`);
    list.addSubnet(address, prefix, family === 4 ? 'ipv4' : 'ipv6');
  }
  return list;
}

/** Public addresses, plus those in `allowed` (an IPv4-mapped address counts as its IPv4 address). */
export function createAddressPolicy(allowed: string | readonly string[] = []): AddressPolicy {
  const list = parseAddressList(allowed);
  return {
    allows(address) {
      const family = isIP(address);
      if (!family) return false;
      const v4 = family === 6 ? embeddedIPv4(address) : undefined;
      if (v4 !== undefined) return list.check(v4, 'ipv4') || isPublicAddress(v4);
      return list.check(address, family === 4 ? 'ipv4' : 'ipv6') || isPublicAddress(address);
    },
  };
}

/** What development and test allow beyond public addresses when OUTBOUND_ALLOWED_ADDRESSES is unset. */
export const DEVELOPMENT_ALLOWED_ADDRESSES = [
  '127.0.0.0/8',
  '::1/128',
  '10.0.0.0/8',
  '172.16.0.0/12',
  '192.168.0.0/16',
  'fc00::/7',
] as const;
