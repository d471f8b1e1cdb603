// Inline projections of agent access: token records and the provenance log, in the append's own
// transaction, so the very next call sees a revocation and an auditor's query sees every call.
import type { McpTokenIssuedData, McpTokenRevokedData, ProvenanceData } from '@tributary/domain';
import {
  runStatements,
  textArray,
  type ProjectedEvent,
  type Projection,
  type SqlStatement,
} from '../shared/projection.js';

/** Statements only (no reads), so an issue or a revocation is appended in one round trip. */
const mcpTokenStatements = (e: ProjectedEvent): SqlStatement[] => {
  if (e.type === 'mcp_token.issued') {
    const d = e.data as McpTokenIssuedData;
    return [
      {
        text: `INSERT INTO rm_mcp_tokens (jti, account_id, agent_id, persona_id, scopes, audience, label, client, created_at, expires_at)
         VALUES ($1, $2, $3, $4, ${textArray(5)}, $6, $7, $8, $9, $10)`,
        values: [
          d.jti,
          d.accountId,
          d.agentId,
          d.personaId ?? null,
          JSON.stringify(d.scopes),
          d.audience,
          d.label,
          d.client ?? null,
          e.occurredAt,
          d.expiresAt,
        ],
      },
    ];
  }
  const d = e.data as McpTokenRevokedData;
  return [
    {
      text: `UPDATE rm_mcp_tokens SET revoked_at = $2 WHERE jti = $1 AND revoked_at IS NULL`,
      values: [d.jti, e.occurredAt],
    },
  ];
};

export const mcpTokensProjection: Projection = {
  name: 'mcp-tokens',
  mode: 'inline',
  tables: ['rm_mcp_tokens'],
  handles: ['mcp_token.issued', 'mcp_token.revoked'],
  statements: mcpTokenStatements,
  apply: (db, e) => runStatements(db, mcpTokenStatements(e)),
};

/**
 * Statements only (no reads), so a call's provenance entry goes in one round trip with its command's
 * events, or on its own (a read tool's entry), instead of BEGIN, two INSERTs and COMMIT.
 */
const provenanceStatements = (e: ProjectedEvent): SqlStatement[] => {
  const d = e.data as ProvenanceData;
  return [
    {
      text: `INSERT INTO rm_provenance (entry_id, occurred_at, tool, surface, auth_mode, token_jti, controller_account_id,
         controller_agent_id, actor_id, args, outcome, error_code, duration_ms, request_id, plan_id, plan_hash, plan_step, client)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)`,
      values: [
        e.id,
        e.occurredAt,
        d.tool,
        d.surface,
        d.authMode,
        d.tokenJti ?? null,
        d.controllerAccountId ?? null,
        d.controllerAgentId ?? null,
        d.actorId ?? null,
        JSON.stringify(d.args),
        d.outcome,
        d.errorCode ?? null,
        d.durationMs,
        d.requestId ?? null,
        d.plan?.planId ?? null,
        d.plan?.hash ?? null,
        d.plan?.step ?? null,
        d.client ?? null,
      ],
    },
  ];
};

export const provenanceProjection: Projection = {
  name: 'provenance',
  mode: 'inline',
  tables: ['rm_provenance'],
  handles: ['provenance.recorded'],
  statements: provenanceStatements,
  apply: (db, e) => runStatements(db, provenanceStatements(e)),
};
