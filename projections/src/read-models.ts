// Query functions over the read models. Shapes match the services' ReadModels port.
import { createAgentAccessReadModels } from './tokens/index.js';
import { createOAuthReadModels } from './oauth/index.js';
import {
  createAddressReadModels,
  createBuilderDomainReadModels,
  createBuilderReadModels,
  createMediaReadModels,
  createFormReadModels,
} from './builder/index.js';
import {
  createAssistantThreadReadModels,
  createAssistantVaultReadModels,
  createAttachmentReadModels,
} from './assistant/index.js';
import { createManifestReadModels } from './manifests/index.js';
import { createPresenceReadModels } from './spatial/index.js';
import type { Queryable } from './shared/projection.js';
import { iso } from './shared/iso.js';

interface AgentRow {
  agent_id: string;
  kind: string;
  name: string;
  handle: string | null;
  owner_agent_id: string | null;
  bio: string | null;
  avatar_url: string | null;
  placeholder: boolean;
  origin: string | null;
  created_at: Date;
  deleted_at: Date | null;
}
const toAgent = (r: AgentRow) => ({
  agentId: r.agent_id,
  kind: r.kind,
  name: r.name,
  handle: r.handle,
  ownerAgentId: r.owner_agent_id,
  bio: r.bio,
  avatarUrl: r.avatar_url,
  placeholder: r.placeholder,
  origin: r.origin,
  createdAt: iso(r.created_at)!,
  deletedAt: iso(r.deleted_at),
});

/** rm_agents' columns that AgentRow holds, every one (instanceWithAgent selects them under an `a_` prefix). */
const AGENT_COLUMNS = Object.keys({
  agent_id: true,
  kind: true,
  name: true,
  handle: true,
  owner_agent_id: true,
  bio: true,
  avatar_url: true,
  placeholder: true,
  origin: true,
  created_at: true,
  deleted_at: true,
} satisfies Record<keyof AgentRow, true>) as (keyof AgentRow)[];

interface InstanceRow {
  instance_id: string;
  role: string;
  name: string;
  base_url: string;
  primary_agent_id: string;
  controllers: string[] | null;
}
/** The instance's controllers, oldest grant first, as a column of a query over rm_instance. */
const CONTROLLERS = `(SELECT array_agg(account_id ORDER BY granted_at) FROM rm_instance_controllers) AS controllers`;
const toInstance = (r: InstanceRow) => ({
  instanceId: r.instance_id,
  role: r.role,
  name: r.name,
  baseUrl: r.base_url,
  primaryAgentId: r.primary_agent_id,
  controllers: r.controllers ?? [],
});

interface AccountRow {
  account_id: string;
  agent_id: string;
  email: string | null;
  handle: string | null;
  created_at: Date;
  email_verified_at: Date | null;
}
const toAccount = (r: AccountRow) => ({
  accountId: r.account_id,
  agentId: r.agent_id,
  email: r.email,
  handle: r.handle,
  createdAt: iso(r.created_at)!,
  emailVerifiedAt: iso(r.email_verified_at),
});

export function createReadModels(db: Queryable) {
  const instance = {
    async get() {
      const { rows } = await db.query<InstanceRow>(
        `SELECT i.*, ${CONTROLLERS}
         FROM rm_instance i`,
      );
      return rows[0] ? toInstance(rows[0]) : null;
    },
    async withAgent(agentId: string | null) {
      // One round trip instead of two on every command: the instance's single row, with the agent
      // joined by id (or the primary agent's id when none is given). The id is a scalar subquery, so the
      // agent is always one probe of rm_agents_pkey: joined on the instance's column instead, the planner
      // hashes all of rm_agents while the tables have no statistics (docs/log.md#queries-that-never-read-a-whole-table).
      const { rows } = await db.query<
        InstanceRow & { [K in keyof AgentRow as `a_${K}`]: AgentRow[K] | null }
      >(
        `SELECT i.instance_id, i.role, i.name, i.base_url, i.primary_agent_id,
                ${CONTROLLERS},
                ${AGENT_COLUMNS.map((c) => `a.${c} AS a_${c}`).join(', ')}
         FROM rm_instance i
         LEFT JOIN rm_agents a
           ON a.agent_id = (SELECT coalesce($1::text, r.primary_agent_id) FROM rm_instance r)
          AND a.deleted_at IS NULL`,
        [agentId],
      );
      const r = rows[0];
      if (!r) return { instance: null, agent: null };
      const agent =
        r.a_agent_id === null
          ? null
          : toAgent(Object.fromEntries(AGENT_COLUMNS.map((c) => [c, r[`a_${c}`]])) as unknown as AgentRow);
      return { instance: toInstance(r), agent };
    },
    // A deleted persona is gone for every reader of this model: no command acts as it or on it.
  };
  const agents = {
    async agent(agentId: string) {
      const { rows } = await db.query<AgentRow>(
        `SELECT * FROM rm_agents WHERE agent_id = $1 AND deleted_at IS NULL`,
        [agentId],
      );
      return rows[0] ? toAgent(rows[0]) : null;
    },
    async personasOf(ownerAgentId: string, options: { includeDeleted?: boolean } = {}) {
      const { rows } = await db.query<AgentRow>(
        `SELECT * FROM rm_agents WHERE owner_agent_id = $1 AND kind = 'persona' AND ($2 OR deleted_at IS NULL)
         ORDER BY created_at, agent_id`,
        [ownerAgentId, options.includeDeleted ?? false],
      );
      return rows.map(toAgent);
    },
    async followedBy(agentId: string, page: { limit: number; after?: string | undefined }) {
      const { rows } = await db.query<{ followed_agent_id: string; origin: string; followed_at: Date }>(
        `SELECT followed_agent_id, origin, followed_at FROM rm_agent_follows
         WHERE follower_agent_id = $1 AND followed_agent_id > $2 ORDER BY followed_agent_id LIMIT $3`,
        [agentId, page.after ?? '', page.limit],
      );
      return rows.map((r) => ({
        agentId: r.followed_agent_id,
        origin: r.origin,
        followedAt: new Date(r.followed_at).toISOString(),
      }));
    },
  };
  const accounts = {
    async accountById(accountId: string) {
      const { rows } = await db.query<AccountRow>(`SELECT * FROM rm_accounts WHERE account_id = $1`, [
        accountId,
      ]);
      return rows[0] ? toAccount(rows[0]) : null;
    },
    async accountByIdentifier(identifier: string) {
      const { rows } = await db.query<AccountRow>(
        `SELECT * FROM rm_accounts WHERE email = $1 OR handle = $1 LIMIT 1`,
        [identifier],
      );
      return rows[0] ? toAccount(rows[0]) : null;
    },
    async sessionByTokenHash(tokenHash: string) {
      const { rows } = await db.query<{
        session_id: string;
        account_id: string;
        expires_at: Date;
        ended_at: Date | null;
      }>(`SELECT session_id, account_id, expires_at, ended_at FROM rm_sessions WHERE token_hash = $1`, [
        tokenHash,
      ]);
      const r = rows[0];
      return r
        ? {
            sessionId: r.session_id,
            accountId: r.account_id,
            expiresAt: iso(r.expires_at)!,
            endedAt: iso(r.ended_at),
          }
        : null;
    },
  };
  // Nested by area, as the services' ReadModels port is.
  return {
    instance,
    agents,
    accounts,
    tokens: createAgentAccessReadModels(db),
    oauth: createOAuthReadModels(db),
    builder: {
      ...createBuilderReadModels(db),
      ...createBuilderDomainReadModels(db),
      ...createMediaReadModels(db),
      ...createAddressReadModels(db),
      ...createFormReadModels(db),
    },
    assistantThreads: createAssistantThreadReadModels(db),
    assistantVault: createAssistantVaultReadModels(db),
    manifests: createManifestReadModels(db),
    presence: createPresenceReadModels(db),
    assistantAttachments: createAttachmentReadModels(db),
  };
}
