// Scoped MCP tokens (stream `mcp-token-<jti>`) and provenance entries (stream `provenance-<uuidv7>`).
// The token itself (a signed JWT) is never stored: the record is what every call is checked against,
// so revoking it, or narrowing its scopes, takes effect on the very next call.
import { conflict, forbidden, invalid, notFound } from '../shared/errors.js';
import type { NewEvent } from '../shared/envelope.js';
import type { McpTokenIssuedData } from './events.js';
import { isValidScope, LEGACY_UNSCOPED } from '../shared/scopes.js';
import { streamAggregate } from '../shared/aggregate.js';
import type { StoredEventLike } from '../shared/stored-event-like.js';

export const mcpTokenStream = (jti: string) => `mcp-token-${jti}`;
/** One stream per entry, named by a fresh UUIDv7, so recording provenance never contends. */
export const provenanceStream = (entryId: string) => `provenance-${entryId}`;

export interface McpTokenState {
  exists: boolean;
  accountId?: string;
  revoked: boolean;
}
export const initialMcpTokenState = (): McpTokenState => ({ exists: false, revoked: false });

function evolveMcpToken(state: McpTokenState, event: StoredEventLike): McpTokenState {
  if (event.type === 'mcp_token.issued')
    return { exists: true, revoked: false, accountId: (event.data as McpTokenIssuedData).accountId };
  if (event.type === 'mcp_token.revoked') return { ...state, revoked: true };
  return state;
}

export const mcpTokenStreams = streamAggregate('mcp-token-', {
  initial: initialMcpTokenState,
  evolve: evolveMcpToken,
});
export const provenanceStreams = streamAggregate('provenance-', {
  initial: () => ({}),
  evolve: (s: object) => s,
});

/**
 * Which scopes a person may put on a token: any `svc.<area>.<read|write>` and the separately granted
 * data scopes over their own data; `svc.admin` only when they operate the instance; never the legacy
 * wildcard, which only a migration writes onto pre-OAuth credentials.
 */
export function scopeGrantable(scope: string, ctx: { isInstanceController: boolean }): boolean {
  if (!isValidScope(scope) || scope === LEGACY_UNSCOPED) return false;
  if (scope === 'svc.admin') return ctx.isInstanceController;
  return true;
}

export interface IssueToken {
  jti: string;
  accountId: string;
  agentId: string;
  personaId?: string | undefined;
  scopes: readonly string[];
  audience: string;
  label: string;
  client?: string | undefined;
  expiresAt: string;
}

export function decideIssueToken(
  cmd: IssueToken,
  state: McpTokenState,
  ctx: { isInstanceController: boolean },
): NewEvent[] {
  if (state.exists) throw conflict('token.exists', 'a token with that id already exists');
  for (const scope of cmd.scopes) {
    if (!isValidScope(scope)) throw invalid('token.scope_invalid', `${scope} is not a scope`, { scope });
    if (!scopeGrantable(scope, ctx))
      throw forbidden('token.scope_not_grantable', `you may not grant ${scope}`, { scope });
  }
  const scopes = [...new Set(cmd.scopes)].sort();
  return [
    {
      stream: mcpTokenStream(cmd.jti),
      type: 'mcp_token.issued',
      data: {
        jti: cmd.jti,
        accountId: cmd.accountId,
        agentId: cmd.agentId,
        ...(cmd.personaId && { personaId: cmd.personaId }),
        scopes,
        audience: cmd.audience,
        label: cmd.label,
        ...(cmd.client && { client: cmd.client }),
        expiresAt: cmd.expiresAt,
      },
    },
  ];
}

/** Only the token's own account may revoke it; anyone else's jti looks like no token at all. */
export function decideRevokeToken(
  cmd: { jti: string; accountId: string; reason: 'owner' | 'operator' | 'credentials_changed' },
  state: McpTokenState,
): NewEvent[] {
  if (!state.exists || (cmd.reason !== 'operator' && state.accountId !== cmd.accountId))
    throw notFound('token.not_found', 'no such token among yours');
  if (state.revoked) return []; // revoking twice is not an error
  return [
    {
      stream: mcpTokenStream(cmd.jti),
      type: 'mcp_token.revoked',
      data: { jti: cmd.jti, reason: cmd.reason },
    },
  ];
}
