// The principal is derived on the server from exactly one credential (docs/architecture.md#principals).
export type Principal =
  | { kind: 'anonymous' }
  | { kind: 'session'; sessionId: string; accountId: string; agentId: string }
  | {
      kind: 'token';
      jti: string;
      accountId: string;
      agentId: string;
      /** A token scoped to a persona acts only as that persona. */
      boundAgentId?: string | undefined;
      scopes: readonly string[];
    }
  | { kind: 'static'; agentId: string; scopes: readonly string[] }
  | { kind: 'peer'; peerId: string; agentId: string }
  /**
   * A person from another instance viewing read-only, by the federated `svc_remote_viewer` cookie: acts
   * as the local agent that stands for them, and runs only operations marked `remoteViewer: 'read'`.
   */
  | { kind: 'remote_viewer'; credentialId: string; agentId: string; home: string }
  /** The instance itself: first start, the operator CLI. */
  | { kind: 'system'; agentId: string };

/** The `enabledFor` vocabulary of the spec: session, or token (scoped or static). */
export const enabledForKind = (p: Principal): 'session' | 'token' | null =>
  p.kind === 'session' ? 'session' : p.kind === 'token' || p.kind === 'static' ? 'token' : null;

/** Where a call came in. `assistant`: a step of a plan the person confirmed, held to the same rules as an MCP tool call. */
export type Surface = 'http' | 'mcp' | 'cli' | 'system' | 'assistant';
