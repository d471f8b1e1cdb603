// What the site server loads (docs/builder.md#serving): per site, its owner, suspension, the manifest
// of the version its publication pointer names, its claimed address (docs/builder.md#addresses) and its
// bound domains. Only sites that have something to answer are listed.
import type { ManifestEntry } from '@tributary/domain';
import type { Queryable } from '../shared/projection.js';

export interface ServingSiteRecord {
  siteId: string;
  ownerAgentId: string;
  labels: string[];
  domains: { name: string; serving: boolean }[];
  suspendedReason: string | null;
  publication: { versionId: string; manifestHash: string; files: ManifestEntry[] } | null;
}

interface Row {
  site_id: string;
  owner_agent_id: string;
  suspended_reason: string | null;
  version_id: string | null;
  manifest_hash: string | null;
  manifest: ManifestEntry[] | null;
  domains: { name: string; serving: boolean }[];
  labels: string[];
}

// A bound domain is served only once verified (docs/builder.md#domains).
const SITES = `SELECT s.site_id, s.owner_agent_id, s.suspended_reason, v.version_id, v.manifest_hash, v.manifest,
    COALESCE((SELECT json_agg(json_build_object('name', d.domain, 'serving', d.state = 'verified') ORDER BY d.domain)
      FROM rm_builder_domains d WHERE d.site_id = s.site_id), '[]') AS domains,
    COALESCE((SELECT json_agg(a.label ORDER BY a.label) FROM rm_builder_addresses a
      WHERE a.site_id = s.site_id AND a.state = 'claimed'), '[]') AS labels
  FROM rm_builder_sites s
  LEFT JOIN rm_builder_versions v ON v.site_id = s.site_id AND v.version_id = s.published_version_id`;
/**
 * A site that is neither published nor suspended answers like an unknown one, so it is left out — unless
 * a domain is bound to it: that host must answer the plain 404 page, not fall through to the application.
 */
const ANSWERING = `(s.published_version_id IS NOT NULL OR s.suspended_reason IS NOT NULL
  OR EXISTS (SELECT 1 FROM rm_builder_domains d WHERE d.site_id = s.site_id))`;

const toRecord = (r: Row): ServingSiteRecord => ({
  siteId: r.site_id,
  ownerAgentId: r.owner_agent_id,
  labels: r.labels,
  domains: r.domains,
  suspendedReason: r.suspended_reason,
  publication:
    r.version_id && r.manifest_hash && r.manifest
      ? { versionId: r.version_id, manifestHash: r.manifest_hash, files: r.manifest }
      : null,
});

export function createSiteServingReadModels(db: Queryable) {
  return {
    async all(): Promise<ServingSiteRecord[]> {
      const { rows } = await db.query<Row>(`${SITES} WHERE ${ANSWERING}`);
      return rows.map(toRecord);
    },
    async site(siteId: string): Promise<ServingSiteRecord | null> {
      const { rows } = await db.query<Row>(`${SITES} WHERE s.site_id = $1 AND ${ANSWERING}`, [siteId]);
      return rows[0] ? toRecord(rows[0]) : null;
    },
    /** The site a change key names: a site id is itself; `domain:<name>` is the site holding the domain. */
    async siteOfChange(key: string): Promise<string | null> {
      if (!key.startsWith('domain:')) return key;
      const { rows } = await db.query<{ site_id: string }>(
        'SELECT site_id FROM rm_builder_domains WHERE domain = $1',
        [key.slice('domain:'.length)],
      );
      return rows[0]?.site_id ?? null;
    },
    /** Every change key with its count of serving-relevant events. */
    async changeCounts(): Promise<Map<string, number>> {
      const { rows } = await db.query<{ change_key: string; changes: string }>(
        'SELECT change_key, changes FROM rm_builder_serving_changes',
      );
      return new Map(rows.map((r) => [r.change_key, Number(r.changes)]));
    },
    /** One number that moves whenever any count does (counts only grow). */
    async changeTotal(): Promise<number> {
      const { rows } = await db.query<{ total: string | null }>(
        'SELECT sum(changes)::text AS total FROM rm_builder_serving_changes',
      );
      return Number(rows[0]?.total ?? 0);
    },
  };
}

export type SiteServingReadModels = ReturnType<typeof createSiteServingReadModels>;
