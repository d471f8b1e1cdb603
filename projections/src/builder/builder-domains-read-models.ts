// Queries over rm_builder_domains; shapes match the services' BuilderReadModels port.
import type { DomainCheckReason, DomainState } from '@tributary/domain';
import type { Queryable } from '../shared/projection.js';

interface DomainRow {
  domain: string;
  site_id: string;
  owner_agent_id: string;
  provider: string;
  state: DomainState;
  reason: DomainCheckReason | null;
  detail: string | null;
  token: string;
  bound_at: Date;
  checked_at: Date | null;
  verified_at: Date | null;
}

const toBinding = (r: DomainRow) => ({
  domain: r.domain,
  siteId: r.site_id,
  ownerAgentId: r.owner_agent_id,
  provider: r.provider,
  state: r.state,
  reason: r.reason,
  detail: r.detail,
  challengeToken: r.token,
  boundAt: r.bound_at.toISOString(),
  checkedAt: r.checked_at?.toISOString() ?? null,
  verifiedAt: r.verified_at?.toISOString() ?? null,
});

/** More than any one page asks for: a list without a limit is still bounded. */
const MAX_PAGE = 1000;

export function createBuilderDomainReadModels(db: Queryable) {
  return {
    async domainBinding(domain: string) {
      const { rows } = await db.query<DomainRow>('SELECT * FROM rm_builder_domains WHERE domain = $1', [
        domain,
      ]);
      return rows[0] ? toBinding(rows[0]) : null;
    },
    async domainBindings(filter: {
      ownerAgentId?: string | undefined;
      siteId?: string | undefined;
      after?: string | undefined;
      limit?: number | undefined;
    }) {
      const { rows } = await db.query<DomainRow>(
        `SELECT * FROM rm_builder_domains
         WHERE ($1::text IS NULL OR owner_agent_id = $1) AND ($2::text IS NULL OR site_id = $2)
           AND ($3::text IS NULL OR domain > $3)
         ORDER BY domain LIMIT $4`,
        [
          filter.ownerAgentId ?? null,
          filter.siteId ?? null,
          filter.after ?? null,
          Math.min(filter.limit ?? MAX_PAGE, MAX_PAGE),
        ],
      );
      return rows.map(toBinding);
    },
  };
}
