// Revoking an OAuth grant (connected-apps page, or RFC 7009 with a refresh token): the whole family goes,
// its refresh token and every access token it minted, so the client cannot simply refresh its way back.
import {
  decideRevokeToken,
  mcpTokenStream,
  notFound,
  oauthError,
  type McpTokenState,
} from '@tributary/domain';
import { z } from 'zod';
import { defineOperation } from '../pipeline/operation.js';
import { loadFamily, revokeFamily } from './oauth-grant-shared.js';

export const revokeOAuthGrant = defineOperation({
  name: 'svc.oauth.grant.revoke',
  title: 'Revoke an OAuth grant',
  description:
    'Disconnect an app: revoke its refresh-token family and every access token it minted. Session only.',
  kind: 'command',
  scopes: [],
  enabledFor: [],
  actsForAgent: false,
  input: z.strictObject({ familyId: z.string().max(100) }),
  async run(ctx, input) {
    const { principal } = ctx;
    const family = await loadFamily(ctx, input.familyId);
    // Someone else's grant looks exactly like no grant.
    if (principal.kind !== 'session' || family.current?.accountId !== principal.accountId)
      throw notFound('oauth.grant_not_found', 'no such grant among yours');
    await revokeFamily(ctx, input.familyId, 'owner', family);
    return { familyId: input.familyId, revoked: true };
  },
});

/**
 * RFC 7009: a client revokes a refresh token (its family) or an access token it holds. The client is
 * identified as at the token endpoint (an unknown one is `invalid_client`), and only tokens issued to
 * it are revoked: another client's live token is refused with `invalid_grant` (RFC 7009 §2.1; RFC 6749
 * §5.2 names a grant "issued to another client" so) and stays valid. A token that is unknown, expired
 * or already revoked is invalid, which is not an error (§2.2).
 */
export const revokeOAuthTokenByValue = defineOperation({
  name: 'svc.oauth.token.revoke',
  title: 'Revoke a token (RFC 7009)',
  description: 'OAuth token revocation by token value.',
  kind: 'command',
  public: true,
  scopes: [],
  enabledFor: [],
  actsForAgent: false,
  input: z.object({ token: z.string().max(4096), clientId: z.string().max(2000) }),
  async run(ctx, input) {
    const { services } = ctx;
    const client = await services.oauthClients.find(input.clientId);
    if (!client) throw oauthError('invalid_client', 'unknown client');
    const notIssuedToYou = () =>
      oauthError('invalid_grant', 'the token was not issued to this client; it was not revoked');
    const familyId = await services.read.oauthFamilyOfRefresh(services.ids.sha256(input.token));
    if (familyId) {
      const family = await loadFamily(ctx, familyId);
      if (family.revoked || !family.current) return { revoked: false };
      if (family.current.clientId !== client.clientId) throw notIssuedToYou();
      await revokeFamily(ctx, familyId, 'owner', family);
      return { revoked: true };
    }
    const claims = await services.accessTokens?.verify(input.token, ctx.now).catch(() => undefined);
    const record = claims ? await services.read.tokenByJti(claims.jti) : null;
    if (!claims || !record || record.revokedAt || record.accountId !== claims.sub) return { revoked: false };
    if (record.client !== client.clientId) throw notIssuedToYou();
    const stream = mcpTokenStream(claims.jti);
    await ctx.commit([stream], (states) =>
      decideRevokeToken(
        { jti: claims.jti, accountId: record.accountId, reason: 'owner' },
        states.get(stream) as McpTokenState,
      ),
    );
    return { revoked: true };
  },
});
