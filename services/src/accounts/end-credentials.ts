// What a credential change ends — a password reset or change, an operator disabling the account: every
// session, every MCP token and OAuth access token, every OAuth grant (its refresh tokens), and the
// person's sign-on authority (so peers end the remote-viewer credentials they minted). All of it in the
// same commit as the change, so no credential outlives it (docs/agent-access.md#credential-change).
import {
  decideEndSession,
  decideRevokeAuthority,
  decideRevokeFamily,
  decideRevokeToken,
  mcpTokenStream,
  oauthFamilyStream,
  sessionStream,
  ssoAuthorityStream,
  type McpTokenState,
  type NewEvent,
  type OAuthFamilyState,
  type SessionState,
  type SsoAuthorityState,
} from '@tributary/domain';
import type { OAuthServices } from '../oauth/ports/index.js';
import type { TokensServices } from '../tokens/ports/index.js';

/** How many credentials a change ended (what the answer and the page say). */
export interface CredentialsEnded {
  sessionsEnded: number;
  tokensRevoked: number;
  grantsRevoked: number;
}

export interface CredentialEnding {
  /** The streams the commit must read (and may write). */
  streams: string[];
  /** The events that end them, given the commit's states; counts what it ended into `ended`. */
  decide(states: Map<string, unknown>): NewEvent[];
  ended: CredentialsEnded;
}

/**
 * The live credentials of an account, as its read models list them, and how to end them all. `agentId`
 * is the account's own agent: its sign-on authority is revoked with them.
 */
export async function credentialEnding(
  services: TokensServices & OAuthServices,
  account: { accountId: string; agentId: string },
  now: Date,
): Promise<CredentialEnding> {
  const { accountId, agentId } = account;
  const live = (expiresAt: string) => Date.parse(expiresAt) > now.getTime();
  const [sessions, tokens, grants] = await Promise.all([
    services.tokens.read.sessionsOf(accountId),
    services.tokens.read.tokensOf(accountId),
    services.oauth.read.oauthGrantsOf(accountId),
  ]);
  const sessionIds = sessions.filter((s) => !s.endedAt && live(s.expiresAt)).map((s) => s.sessionId);
  const jtis = tokens.filter((t) => !t.revokedAt && live(t.expiresAt)).map((t) => t.jti);
  const families = grants.filter((g) => !g.revokedAt).map((g) => g.familyId);
  const authority = ssoAuthorityStream(agentId);
  const ended: CredentialsEnded = { sessionsEnded: 0, tokensRevoked: 0, grantsRevoked: 0 };
  return {
    streams: [
      ...sessionIds.map(sessionStream),
      ...jtis.map(mcpTokenStream),
      ...families.map(oauthFamilyStream),
      authority,
    ],
    ended,
    decide(states) {
      const sessionEvents = sessionIds.flatMap((id) =>
        decideEndSession(id, 'revoked', states.get(sessionStream(id)) as SessionState),
      );
      const tokenEvents = jtis.flatMap((jti) =>
        decideRevokeToken(
          { jti, accountId, reason: 'credentials_changed' },
          states.get(mcpTokenStream(jti)) as McpTokenState,
        ),
      );
      const familyEvents = families.flatMap((familyId) =>
        decideRevokeFamily(
          familyId,
          'credentials_changed',
          states.get(oauthFamilyStream(familyId)) as OAuthFamilyState,
        ),
      );
      ended.sessionsEnded = sessionEvents.length;
      ended.tokensRevoked = tokenEvents.length;
      ended.grantsRevoked = familyEvents.length;
      return [
        ...sessionEvents,
        ...tokenEvents,
        ...familyEvents,
        ...decideRevokeAuthority(
          { agentId, revokedAt: now.toISOString() },
          states.get(authority) as SsoAuthorityState,
        ),
      ];
    },
  };
}
