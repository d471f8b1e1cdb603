// rm_builder_domains in memory, by the rules of projections/src/builder/builder-domains-projection.ts:
// one binding per domain from this instance's own domain-<name> streams, gone when unbound, the state
// left as it was by a resolver error. Test layer only.
import type { BuilderDomainEventData as EventData } from '@tributary/domain';
import type { BuilderReadModels, DomainBindingView, StoredEvent } from '@tributary/services';

type DomainReadModels = Pick<BuilderReadModels, 'domainBinding' | 'domainBindings'>;

export function inMemoryDomainReadModels(log: { all(): readonly StoredEvent[] }): DomainReadModels {
  const folded = () => foldDomains(log.all());
  return {
    async domainBinding(domain) {
      const b = folded().get(domain);
      return b ? { ...b } : null;
    },
    async domainBindings(filter) {
      return [...folded().values()]
        .filter(
          (b) =>
            (filter.ownerAgentId === undefined || b.ownerAgentId === filter.ownerAgentId) &&
            (filter.siteId === undefined || b.siteId === filter.siteId) &&
            (filter.after === undefined || b.domain > filter.after),
        )
        .sort((a, b) => (a.domain < b.domain ? -1 : 1))
        .slice(0, Math.min(filter.limit ?? 1000, 1000));
    },
  };
}

function foldDomains(events: readonly StoredEvent[]): Map<string, DomainBindingView> {
  const bindings = new Map<string, DomainBindingView>();
  for (const e of events) {
    // Only this instance's own streams: imported events sit under `<origin>/<stream>`.
    if (!e.stream.startsWith('domain-')) continue;
    switch (e.type) {
      case 'site.domain_bound': {
        const d = e.data as EventData<'site.domain_bound'>;
        bindings.set(d.domain, {
          domain: d.domain,
          siteId: d.siteId,
          ownerAgentId: d.ownerAgentId,
          provider: d.provider,
          state: 'pending',
          reason: null,
          detail: null,
          challengeToken: d.challengeToken,
          boundAt: d.boundAt,
          checkedAt: null,
          verifiedAt: null,
        });
        break;
      }
      case 'site.domain_verified': {
        const d = e.data as EventData<'site.domain_verified'>;
        const b = bindings.get(d.domain);
        if (b)
          Object.assign(b, {
            state: 'verified',
            reason: null,
            detail: null,
            checkedAt: d.checkedAt,
            verifiedAt: d.checkedAt,
          });
        break;
      }
      case 'site.domain_check_failed': {
        const d = e.data as EventData<'site.domain_check_failed'>;
        const b = bindings.get(d.domain);
        if (b)
          Object.assign(b, {
            state: d.reason === 'resolver_error' ? b.state : 'failed',
            reason: d.reason,
            detail: d.detail,
            checkedAt: d.checkedAt,
          });
        break;
      }
      case 'site.domain_unbound':
        bindings.delete((e.data as EventData<'site.domain_unbound'>).domain);
        break;
    }
  }
  return bindings;
}
