// The custom-domain checks' DNS resolver (docs/builder.md#domains): node:dns's c-ares Resolver,
// asking the servers of DNS_RESOLVERS (host[:port], so tests point it at a server on loopback) or the
// system's when unset, each query bounded by DNS_TIMEOUT_MS and retried once.
import type { DnsLookup } from '@tributary/domain';
import type { DnsResolver } from '@tributary/services';
import { Resolver } from 'node:dns/promises';

/** What c-ares answers when the name or the record type does not exist: an answer, not a failure. */
const ABSENT = new Set(['ENOTFOUND', 'ENODATA']);

export interface NodeDnsResolverOptions {
  /** `host`, `host:port`, `[v6]:port`; empty: the system's resolvers. */
  servers: readonly string[];
  timeoutMs: number;
  tries?: number;
}

export function createNodeDnsResolver(o: NodeDnsResolverOptions): DnsResolver {
  const resolver = new Resolver({ timeout: o.timeoutMs, tries: o.tries ?? 2 });
  if (o.servers.length > 0) resolver.setServers([...o.servers]);
  const lookup = async (run: () => Promise<string[]>): Promise<DnsLookup> => {
    try {
      const records = await run();
      return records.length > 0 ? { kind: 'records', records } : { kind: 'none' };
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code ?? 'EUNKNOWN';
      return ABSENT.has(code) ? { kind: 'none' } : { kind: 'error', detail: code };
    }
  };
  return {
    txt: (name) => lookup(async () => (await resolver.resolveTxt(name)).map((chunks) => chunks.join(''))),
    cname: (name) => lookup(() => resolver.resolveCname(name)),
    async addresses(name) {
      const [v4, v6] = await Promise.all([
        lookup(() => resolver.resolve4(name)),
        lookup(() => resolver.resolve6(name)),
      ]);
      const records = [v4, v6].flatMap((l) => (l.kind === 'records' ? l.records : []));
      if (records.length > 0) return { kind: 'records', records };
      // Neither family answered an address: absent only when both said so.
      const failed = [v4, v6].find((l) => l.kind === 'error');
      return failed ?? { kind: 'none' };
    },
  };
}
