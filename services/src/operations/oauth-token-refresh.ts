// grant_type=refresh_token: rotating. Each refresh token works once; presenting one that was already
// rotated away revokes the whole family (OAuth 2.1 §4.3.1). Scopes may narrow, never widen.
import { oauthError, scopeSchema } from '@tributary/domain';
import { z } from 'zod';
import { defineOperation } from '../pipeline/operation.js';
import { loadFamily, mintTokens, revokeFamily } from './oauth-grant-shared.js';

export const refreshOAuthToken = defineOperation({
  name: 'svc.oauth.token.refresh_token',
  title: 'Rotate a refresh token',
  description: 'OAuth token endpoint, refresh_token grant.',
  kind: 'command',
  public: true,
  scopes: [],
  enabledFor: [],
  actsForAgent: false,
  input: z.object({
    clientId: z.string().max(200),
    refreshToken: z.string().max(200),
    scopes: z.array(scopeSchema).max(64).optional(),
    resource: z.string().max(2000).optional(),
  }),
  async run(ctx, input) {
    const { services } = ctx;
    const client = await services.read.oauthClient(input.clientId);
    if (!client) throw oauthError('invalid_client', 'unknown client');
    const digest = services.ids.sha256(input.refreshToken);
    const familyId = await services.read.oauthFamilyOfRefresh(digest);
    if (!familyId) throw oauthError('invalid_grant', 'unknown refresh token');
    const family = await loadFamily(ctx, familyId);
    const current = family.current;
    if (!current || current.clientId !== client.clientId)
      throw oauthError('invalid_grant', 'unknown refresh token');
    if (family.revoked) throw oauthError('invalid_grant', 'the grant was revoked');
    if (current.refreshDigest !== digest) {
      await revokeFamily(ctx, familyId, family, 'refresh_reuse');
      throw oauthError('invalid_grant', 'the refresh token was already used; the grant is revoked');
    }
    if (new Date(current.expiresAt) <= ctx.now)
      throw oauthError('invalid_grant', 'the refresh token expired');
    if (input.resource !== undefined && input.resource !== current.resource)
      throw oauthError('invalid_target', 'resource differs from the one consented to');
    const scopes = input.scopes ?? current.scopes;
    for (const s of scopes)
      if (!current.scopes.includes(s)) throw oauthError('invalid_scope', `${s} was not granted`);
    const minted = await mintTokens(ctx, { ...current, clientName: client.clientName, scopes });
    await ctx.commit(minted.streams, minted.decide);
    return minted.response;
  },
});
