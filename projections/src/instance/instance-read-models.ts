// The instance area's queries: the instance's row, alone or with an agent joined in one round trip.
import { AGENT_COLUMNS, toAgent, type AgentRow } from '../agents/index.js';
import type { Queryable } from '../shared/projection.js';

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

export function createInstanceReadModels(db: Queryable) {
  return {
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
}
