// What agent access reads from its projections (rm_mcp_tokens, rm_provenance) and from sessions.
export interface McpTokenView {
  jti: string;
  accountId: string;
  agentId: string;
  personaId: string | null;
  scopes: string[];
  audience: string;
  label: string;
  client: string | null;
  createdAt: string;
  expiresAt: string;
  revokedAt: string | null;
  /** When the persona the token is bound to was deleted (the token then acts for no one); else null. */
  personaDeletedAt: string | null;
}

export interface ProvenanceView {
  entryId: string;
  at: string;
  tool: string;
  surface: string;
  authMode: string;
  tokenJti: string | null;
  controllerAccountId: string | null;
  controllerAgentId: string | null;
  actorId: string | null;
  args: Record<string, unknown>;
  outcome: string;
  errorCode: string | null;
  durationMs: number;
  requestId: string | null;
  /** The assistant plan step this call ran, when it ran one. */
  plan: { planId: string; hash: string; step: number } | null;
}

export interface SessionRecordView {
  sessionId: string;
  startedAt: string;
  expiresAt: string;
  endedAt: string | null;
}

/** Exactly one of the selectors; newest first. */
export interface ProvenanceQuery {
  controllerAccountId?: string;
  actorId?: string;
  authMode?: string;
  limit: number;
  /** Only entries older than this entry id (ids are UUIDv7, so they sort by time). */
  before?: string | undefined;
}

/** The assistant's calls of one person: on the `assistant` surface, or naming a plan; newest first. */
export interface AssistantProvenanceQuery {
  controllerAccountId: string;
  /** Only the entries of this plan. */
  planId?: string | undefined;
  limit: number;
  before?: string | undefined;
}

export interface AgentAccessReadModels {
  tokenByJti(jti: string): Promise<McpTokenView | null>;
  /** The account's tokens, newest first, each with when provenance last saw it used, and by which client. */
  tokensOf(
    accountId: string,
  ): Promise<(McpTokenView & { lastUsedAt: string | null; lastUsedClient: string | null })[]>;
  provenance(query: ProvenanceQuery): Promise<ProvenanceView[]>;
  assistantProvenance(query: AssistantProvenanceQuery): Promise<ProvenanceView[]>;
  sessionsOf(accountId: string): Promise<SessionRecordView[]>;
}
