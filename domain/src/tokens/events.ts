// Events of agent access: scoped MCP token records and the provenance log. All private and
// never federable: a token record and who called which tool are this instance's business only.
import { z } from 'zod';
import { defineEvent, type EventDefinition } from '../shared/define-event.js';
import { idempotencyClaimed } from './idempotency.js';

export const mcpTokenIssued = defineEvent({
  type: 'mcp_token.issued',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({
    jti: z.string(),
    accountId: z.string(),
    /** The account's own (person) agent: the controller behind every call made with the token. */
    agentId: z.string(),
    /** Set when the token acts only for one persona (or other agent) the account controls. */
    personaId: z.string().optional(),
    scopes: z.array(z.string()),
    audience: z.string(),
    label: z.string(),
    client: z.string().optional(),
    expiresAt: z.string(),
  }),
});

export const mcpTokenRevoked = defineEvent({
  type: 'mcp_token.revoked',
  version: 1,
  federable: false,
  public: false,
  // credentials_changed: the account's password was reset or changed, or an operator disabled it.
  data: z.strictObject({ jti: z.string(), reason: z.enum(['owner', 'operator', 'credentials_changed']) }),
});

const PROVENANCE_OUTCOMES = ['ok', 'denied', 'error'] as const;

/** One entry per tool invocation, allowed or refused; arguments are a redacted summary. */
export const provenanceRecorded = defineEvent({
  type: 'provenance.recorded',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({
    tool: z.string(),
    surface: z.string(),
    authMode: z.string(),
    tokenJti: z.string().optional(),
    controllerAccountId: z.string().optional(),
    controllerAgentId: z.string().optional(),
    /** The agent acted for; absent when the call was refused before the actor was resolved. */
    actorId: z.string().optional(),
    args: z.record(z.string(), z.unknown()),
    outcome: z.enum(PROVENANCE_OUTCOMES),
    errorCode: z.string().optional(),
    durationMs: z.number().nonnegative(),
    requestId: z.string().optional(),
    /** The calling client as it names itself (its User-Agent), so a person sees where a token was used. */
    client: z.string().max(200).optional(),
    /** Set when the invocation is a step of an assistant plan the person confirmed. */
    plan: z.strictObject({ planId: z.string(), hash: z.string(), step: z.number().int().min(1) }).optional(),
  }),
});

const AGENT_ACCESS_EVENTS = [
  mcpTokenIssued,
  mcpTokenRevoked,
  provenanceRecorded,
  idempotencyClaimed,
] as const satisfies readonly EventDefinition[];

export type McpTokenIssuedData = z.infer<typeof mcpTokenIssued.data>;
export type McpTokenRevokedData = z.infer<typeof mcpTokenRevoked.data>;
export type ProvenanceData = z.infer<typeof provenanceRecorded.data>;
export type ProvenanceOutcome = (typeof PROVENANCE_OUTCOMES)[number];

export const tokensEvents = AGENT_ACCESS_EVENTS;
