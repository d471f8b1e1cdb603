// Inline projection of the custom-domain streams (domain-<name>) into rm_builder_domains, in the
// append's own transaction, so a binding answered by bind_domain is readable at once and a failed
// re-check stops the serving side at the next refresh. Statements only.
import type { BuilderDomainEventData as EventData } from '@tributary/domain';
import {
  runStatements,
  type ProjectedEvent,
  type Projection,
  type SqlStatement,
} from '../shared/projection.js';

function domainStatements(e: ProjectedEvent): SqlStatement[] {
  // Domain events never federate; one arriving from a peer is not a binding of ours.
  if (e.imported) return [];
  switch (e.type) {
    case 'site.domain_bound': {
      const d = e.data as EventData<'site.domain_bound'>;
      return [
        {
          text: `INSERT INTO rm_builder_domains (domain, site_id, owner_agent_id, provider, state, token, bound_at)
                 VALUES ($1, $2, $3, $4, 'pending', $5, $6)`,
          values: [d.domain, d.siteId, d.ownerAgentId, d.provider, d.challengeToken, d.boundAt],
        },
      ];
    }
    case 'site.domain_verified': {
      const d = e.data as EventData<'site.domain_verified'>;
      return [
        {
          text: `UPDATE rm_builder_domains SET state = 'verified', reason = NULL, detail = NULL, checked_at = $2,
                   verified_at = $2 WHERE domain = $1`,
          values: [d.domain, d.checkedAt],
        },
      ];
    }
    case 'site.domain_check_failed': {
      const d = e.data as EventData<'site.domain_check_failed'>;
      // Our resolver failing leaves the state as it was (domain/src/builder/domain-binding.ts).
      return [
        {
          text: `UPDATE rm_builder_domains SET state = CASE WHEN $2 = 'resolver_error' THEN state ELSE 'failed' END,
                   reason = $2, detail = $3, checked_at = $4 WHERE domain = $1`,
          values: [d.domain, d.reason, d.detail, d.checkedAt],
        },
      ];
    }
    case 'site.domain_unbound': {
      const d = e.data as EventData<'site.domain_unbound'>;
      return [{ text: 'DELETE FROM rm_builder_domains WHERE domain = $1', values: [d.domain] }];
    }
    default:
      return [];
  }
}

export const builderDomainsProjection: Projection = {
  name: 'builder-domains',
  mode: 'inline',
  tables: ['rm_builder_domains'],
  handles: ['site.domain_bound', 'site.domain_verified', 'site.domain_check_failed', 'site.domain_unbound'],
  statements: domainStatements,
  apply: (db, e) => runStatements(db, domainStatements(e)),
};
