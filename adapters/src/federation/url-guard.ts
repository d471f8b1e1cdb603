// SSRF guard for peer base URLs (and, later, callbacks): in production a peer must be a public
// address. The host is resolved (every address dns.lookup returns, so a name with one public and one
// private address is refused), not just matched as a string. Development and test allow loopback.
// A later connection re-resolves the name: the outbound client should check again (DNS rebinding).
import { invalid } from '@tributary/domain';
import type { UrlGuard } from '@tributary/services';
import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/** Ranges that are never a peer in production (RFC 6890 special-purpose, private, loopback, link-local…). */
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
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96], // NAT64: reaches IPv4 space we cannot see through
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16], // 6to4
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  NON_PUBLIC.addSubnet(net, prefix, 'ipv6');

/** Whether an IP address literal is a public unicast address. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !NON_PUBLIC.check(address, 'ipv4');
  if (family !== 6) return false;
  // IPv4-mapped and IPv4-compatible forms are judged by the IPv4 address inside.
  const mapped = /^(?:::ffff:|::)(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return isPublicAddress(mapped);
  const hexMapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (hexMapped) {
    const hi = parseInt(hexMapped[1]!, 16);
    const lo = parseInt(hexMapped[2]!, 16);
    return isPublicAddress(`${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`);
  }
  if (/^::ffff:/i.test(address)) return false;
  return !NON_PUBLIC.check(address, 'ipv6');
}

export type Lookup = (host: string) => Promise<string[]>;

const systemLookup: Lookup = async (host) =>
  (await dnsLookup(host, { all: true, verbatim: true })).map((a) => a.address);

export function createUrlGuard(options: { enforce: boolean; lookup?: Lookup }): UrlGuard {
  const lookup = options.lookup ?? systemLookup;
  return {
    async checkPeerUrl(raw) {
      let url: URL;
      try {
        url = new URL(raw);
      } catch {
        throw invalid('federation.unsafe_url', 'not a URL');
      }
      if (url.protocol !== 'https:' && url.protocol !== 'http:')
        throw invalid('federation.unsafe_url', 'a peer URL must be http or https');
      if (!options.enforce) return;
      const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
      let addresses: string[];
      if (isIP(host)) addresses = [host];
      else {
        try {
          addresses = await lookup(host);
        } catch {
          throw invalid('federation.unresolvable_url', `the host ${host} does not resolve`);
        }
      }
      if (addresses.length === 0)
        throw invalid('federation.unresolvable_url', `the host ${host} does not resolve`);
      const bad = addresses.find((a) => !isPublicAddress(a));
      if (bad !== undefined)
        throw invalid('federation.unsafe_url', 'a peer URL must point at a public address', {
          host,
          address: bad,
        });
    },
  };
}

/**
 * A `lookup` for node's http(s) clients that only ever connects to public addresses: the name is
 * resolved once, every address checked, and the connection made to what was checked — no window for
 * DNS rebinding between the check and the connection. (An IP-literal host skips `lookup`: check it first
 * with `isPublicAddress`.)
 */
export function publicOnlyLookup(lookup: Lookup = systemLookup): LookupFunction {
  return ((hostname: string, options: LookupOptions, callback: LookupCallback) => {
    lookup(hostname).then(
      (addresses) => {
        const bad = addresses.find((a) => !isPublicAddress(a));
        if (addresses.length === 0 || bad !== undefined)
          return callback(
            addresses.length === 0
              ? invalid('federation.unresolvable_url', `the host ${hostname} does not resolve`)
              : invalid('federation.unsafe_url', 'the URL must point at a public address', {
                  host: hostname,
                  address: bad,
                }),
            '',
            0,
          );
        if (options.all)
          return callback(
            null,
            addresses.map((address) => ({ address, family: isIP(address) })),
          );
        callback(null, addresses[0]!, isIP(addresses[0]!));
      },
      (e: Error) => callback(e, '', 0),
    );
  }) as unknown as LookupFunction;
}

type LookupOptions = { all?: boolean };
type LookupCallback = (
  err: Error | null,
  address: string | { address: string; family: number }[],
  family?: number,
) => void;
