// The agents area's queries: an agent, a person's personas.
import type { Queryable } from '../shared/projection.js';
import { iso } from '../shared/iso.js';

export interface AgentRow {
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
export const toAgent = (r: AgentRow) => ({
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
export const AGENT_COLUMNS = Object.keys({
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

export function createAgentReadModels(db: Queryable) {
  return {
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
  };
}
