// Query functions over rm_mcp_tokens, rm_provenance and rm_sessions; shapes match the services'
// AgentAccessReadModels port.
import type { Queryable } from '../shared/projection.js';
import { iso } from '../shared/iso.js';

interface TokenRow {
  jti: string;
  account_id: string;
  agent_id: string;
  persona_id: string | null;
  scopes: string[];
  audience: string;
  label: string;
  client: string | null;
  created_at: Date;
  expires_at: Date;
  revoked_at: Date | null;
  persona_deleted_at: Date | null;
  last_used_at?: Date | null;
  last_used_client?: string | null;
}
const toToken = (r: TokenRow) => ({
  jti: r.jti,
  accountId: r.account_id,
  agentId: r.agent_id,
  personaId: r.persona_id,
  scopes: r.scopes,
  audience: r.audience,
  label: r.label,
  client: r.client,
  createdAt: r.created_at.toISOString(),
  expiresAt: r.expires_at.toISOString(),
  revokedAt: iso(r.revoked_at),
  personaDeletedAt: iso(r.persona_deleted_at),
});

/** A token row with the deletion time of the persona it is bound to (rm_agents keeps deleted personas). */
const TOKEN_COLUMNS = `t.*, (SELECT p.deleted_at FROM rm_agents p WHERE p.agent_id = t.persona_id) AS persona_deleted_at`;

interface ProvenanceRow {
  entry_id: string;
  occurred_at: Date;
  tool: string;
  surface: string;
  auth_mode: string;
  token_jti: string | null;
  controller_account_id: string | null;
  controller_agent_id: string | null;
  actor_id: string | null;
  args: Record<string, unknown>;
  outcome: string;
  error_code: string | null;
  duration_ms: number;
  request_id: string | null;
  plan_id: string | null;
  plan_hash: string | null;
  plan_step: number | null;
}
const toProvenance = (r: ProvenanceRow) => ({
  entryId: r.entry_id,
  at: r.occurred_at.toISOString(),
  tool: r.tool,
  surface: r.surface,
  authMode: r.auth_mode,
  tokenJti: r.token_jti,
  controllerAccountId: r.controller_account_id,
  controllerAgentId: r.controller_agent_id,
  actorId: r.actor_id,
  args: r.args,
  outcome: r.outcome,
  errorCode: r.error_code,
  durationMs: r.duration_ms,
  requestId: r.request_id,
  plan:
    r.plan_id === null || r.plan_hash === null || r.plan_step === null
      ? null
      : { planId: r.plan_id, hash: r.plan_hash, step: r.plan_step },
});

export function createAgentAccessReadModels(db: Queryable) {
  return {
    async tokenByJti(jti: string) {
      const { rows } = await db.query<TokenRow>(
        `SELECT ${TOKEN_COLUMNS} FROM rm_mcp_tokens t WHERE t.jti = $1`,
        [jti],
      );
      return rows[0] ? toToken(rows[0]) : null;
    },
    async tokensOf(accountId: string) {
      // Last use (when, and the client that made it) is derived from the provenance log (one index probe
      // per token), never written back.
      const { rows } = await db.query<TokenRow>(
        `SELECT ${TOKEN_COLUMNS}, last.occurred_at AS last_used_at, last.client AS last_used_client
         FROM rm_mcp_tokens t
         LEFT JOIN LATERAL (SELECT p.occurred_at, p.client FROM rm_provenance p WHERE p.token_jti = t.jti
                            ORDER BY p.entry_id DESC LIMIT 1) last ON true
         WHERE t.account_id = $1 ORDER BY t.created_at DESC, t.jti`,
        [accountId],
      );
      return rows.map((r) => ({
        ...toToken(r),
        lastUsedAt: iso(r.last_used_at ?? null),
        lastUsedClient: r.last_used_client ?? null,
      }));
    },
    async provenance(q: {
      controllerAccountId?: string;
      actorId?: string;
      authMode?: string;
      limit: number;
      before?: string | undefined;
    }) {
      const [column, value] =
        q.controllerAccountId !== undefined
          ? ['controller_account_id', q.controllerAccountId]
          : q.actorId !== undefined
            ? ['actor_id', q.actorId]
            : q.authMode !== undefined
              ? ['auth_mode', q.authMode]
              : [undefined, undefined];
      if (!column) throw new Error('provenance query needs a selector');
      const { rows } = await db.query<ProvenanceRow>(
        `SELECT * FROM rm_provenance WHERE ${column} = $1 AND ($2::text IS NULL OR entry_id < $2)
         ORDER BY entry_id DESC LIMIT $3`,
        [value, q.before ?? null, q.limit],
      );
      return rows.map(toProvenance);
    },
    async assistantProvenance(q: {
      controllerAccountId: string;
      planId?: string | undefined;
      limit: number;
      before?: string | undefined;
    }) {
      // Served by rm_provenance_assistant (a partial index of exactly these rows) or, for one plan, by
      // rm_provenance_plan.
      const { rows } = await db.query<ProvenanceRow>(
        q.planId === undefined
          ? `SELECT * FROM rm_provenance
             WHERE controller_account_id = $1 AND (surface = 'assistant' OR plan_id IS NOT NULL)
               AND ($2::text IS NULL OR entry_id < $2)
             ORDER BY entry_id DESC LIMIT $3`
          : `SELECT * FROM rm_provenance
             WHERE plan_id = $4 AND controller_account_id = $1 AND ($2::text IS NULL OR entry_id < $2)
             ORDER BY entry_id DESC LIMIT $3`,
        q.planId === undefined
          ? [q.controllerAccountId, q.before ?? null, q.limit]
          : [q.controllerAccountId, q.before ?? null, q.limit, q.planId],
      );
      return rows.map(toProvenance);
    },
    async sessionsOf(accountId: string) {
      const { rows } = await db.query<{
        session_id: string;
        started_at: Date;
        expires_at: Date;
        ended_at: Date | null;
      }>(
        `SELECT session_id, started_at, expires_at, ended_at FROM rm_sessions WHERE account_id = $1 ORDER BY started_at DESC`,
        [accountId],
      );
      return rows.map((r) => ({
        sessionId: r.session_id,
        startedAt: r.started_at.toISOString(),
        expiresAt: r.expires_at.toISOString(),
        endedAt: iso(r.ended_at),
      }));
    },
  };
}
