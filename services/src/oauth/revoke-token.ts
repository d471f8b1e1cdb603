// RFC 7009 revocation by token value, on the token endpoint's client identification.
import { decideRevokeToken, mcpTokenStream, oauthError, type McpTokenState } from '@tributary/domain';
import { z } from 'zod';
import { defineOAuthOperation } from './oauth-operation.js';
import { loadFamily, requireClient, revokeFamily } from './grant-family.js';

/**
 * RFC 7009: a client revokes a refresh token (its family) or an access token it holds. The client is
 * identified as at the token endpoint (an unknown one is `invalid_client`), and only tokens issued to
 * it are revoked: another client's live token is refused with `invalid_grant` (RFC 7009 §2.1; RFC 6749
 * §5.2 names a grant "issued to another client" so) and stays valid. A token that is unknown, expired
 * or already revoked is invalid, which is not an error (§2.2).
 */
export const revokeOAuthTokenByValue = defineOAuthOperation({
  name: 'svc.oauth.token.revoke',
  title: 'Revoke a token (RFC 7009)',
  description: 'OAuth token revocation by token value.',
  kind: 'command',
  public: true,
  scopes: [],
  enabledFor: [],
  ownEndpoint: true,
  actsForAgent: false,
  input: z.object({ token: z.string().max(4096), clientId: z.string().max(2000) }),
  async run(ctx, input) {
    const { services } = ctx;
    const client = await requireClient(ctx, input.clientId);
    const notIssuedToYou = () =>
      oauthError('invalid_grant', 'the token was not issued to this client; it was not revoked');
    const familyId = await services.oauth.read.oauthFamilyOfRefresh(services.ids.sha256(input.token));
    if (familyId) {
      const family = await loadFamily(ctx, familyId);
      if (family.revoked || !family.current) return { revoked: false };
      if (family.current.clientId !== client.clientId) throw notIssuedToYou();
      await revokeFamily(ctx, familyId, 'owner', family);
      return { revoked: true };
    }
    const claims = await services.tokens.accessTokens?.verify(input.token, ctx.now).catch(() => undefined);
    const record = claims ? await services.tokens.read.tokenByJti(claims.jti) : null;
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
