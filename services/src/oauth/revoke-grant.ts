// Revoking an OAuth grant (connected-apps page, or RFC 7009 with a refresh token): the whole family goes,
// its refresh token and every access token it minted, so the client cannot simply refresh its way back.
import { notFound } from '@tributary/domain';
import { z } from 'zod';
import { defineOAuthOperation } from './oauth-operation.js';
import { loadFamily, revokeFamily } from './grant-family.js';

export const revokeOAuthGrant = defineOAuthOperation({
  name: 'svc.oauth.grant.revoke',
  title: 'Revoke an OAuth grant',
  description:
    'Disconnect an app: revoke its refresh-token family and every access token it minted. Session only.',
  kind: 'command',
  scopes: [],
  enabledFor: [],
  ownEndpoint: true,
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
