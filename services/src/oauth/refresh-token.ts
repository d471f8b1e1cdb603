// grant_type=refresh_token: rotating. Each refresh token works once; presenting one that was already
// rotated away revokes the whole family (OAuth 2.1 §4.3.1). Scopes may narrow, never widen, and stay
// within the client's scope bound (registered scope, scopes_supported) as it is now. Besides each
// refresh token's idle lifetime, the family ends a fixed time after it was granted: rotation does not
// extend that.
//
// The family is checked and rotated against its read model (current refresh token, stream version),
// not by folding its stream, which grows by one event per rotation. The append still expects that
// version, so of concurrent refreshes with one token exactly one wins; the others get invalid_grant.
import {
  initialOAuthFamilyState,
  oauthError,
  oauthFamilyStream,
  scopeSchema,
  type OAuthFamilyState,
} from '@tributary/domain';
import { z } from 'zod';
import { type KnownStream } from '../pipeline/operation.js';
import { defineOAuthOperation } from './oauth-operation.js';
import { familyEndsAt, loadFamily, mintTokens, revokeFamily } from './grant-family.js';
import { clientScopeBound } from './scopes.js';

export const refreshOAuthToken = defineOAuthOperation({
  name: 'svc.oauth.token.refresh_token',
  title: 'Rotate a refresh token',
  description: 'OAuth token endpoint, refresh_token grant.',
  kind: 'command',
  public: true,
  scopes: [],
  enabledFor: [],
  ownEndpoint: true,
  actsForAgent: false,
  input: z.object({
    clientId: z.string().max(2000),
    refreshToken: z.string().max(200),
    scopes: z.array(scopeSchema).max(64).optional(),
    resource: z.string().max(2000).optional(),
  }),
  async run(ctx, input) {
    const { services } = ctx;
    const digest = services.ids.sha256(input.refreshToken);
    const [client, row] = await Promise.all([
      services.oauth.clients.find(input.clientId),
      services.oauth.read.oauthFamilyOfRefreshState(digest),
    ]);
    if (!client) throw oauthError('invalid_client', 'unknown client');
    if (!row) throw oauthError('invalid_grant', 'unknown refresh token');
    const familyId = row.familyId;
    const stream = oauthFamilyStream(familyId);
    // A family folded before its read model kept the current token: fold its stream, as before.
    let family: { state: OAuthFamilyState; version: number | undefined };
    if (row.current && row.streamVersion !== null)
      family = {
        // Rotation decides on `revoked` alone; the used digests and access tokens stay in the stream.
        state: { ...initialOAuthFamilyState(), current: row.current, revoked: row.revoked },
        version: row.streamVersion,
      };
    else family = { state: await loadFamily(ctx, familyId), version: undefined };
    const current = family.state.current;
    if (!current || current.clientId !== client.clientId)
      throw oauthError('invalid_grant', 'unknown refresh token');
    if (family.state.revoked) throw oauthError('invalid_grant', 'the grant was revoked');
    if (current.refreshDigest !== digest) {
      await revokeFamily(ctx, familyId, 'refresh_reuse');
      throw oauthError('invalid_grant', 'the refresh token was already used; the grant is revoked');
    }
    const grantedAt = current.grantedAt ?? row.createdAt ?? ctx.now.toISOString();
    if (familyEndsAt(grantedAt, services.config.oauth) <= ctx.now)
      throw oauthError('invalid_grant', 'the grant reached its maximum lifetime; authorize again');
    if (new Date(current.expiresAt) <= ctx.now)
      throw oauthError('invalid_grant', 'the refresh token expired');
    if (input.resource !== undefined && input.resource !== current.resource)
      throw oauthError('invalid_target', 'resource differs from the one consented to');
    // A grant for a persona that was deleted since can only mint tokens that act for no one.
    if (current.personaId && !(await services.agents.read.agent(current.personaId)))
      throw oauthError('invalid_grant', 'the persona of this grant was deleted');
    const bound = clientScopeBound(client, ctx.services.config.scopesSupported);
    for (const s of input.scopes ?? []) {
      if (!current.scopes.includes(s)) throw oauthError('invalid_scope', `${s} was not granted`);
      if (!bound.has(s)) throw oauthError('invalid_scope', `${s} is no longer allowed for this client`);
    }
    // Without a `scope`, the grant's scopes, less any its client may no longer hold.
    const scopes = (input.scopes ?? current.scopes).filter((s) => bound.has(s));
    const minted = await mintTokens(ctx, {
      ...current,
      clientName: client.clientName,
      scopes,
      grantedAt,
    });
    const known = new Map<string, KnownStream>(minted.known);
    if (family.version !== undefined) known.set(stream, { state: family.state, version: family.version });
    await ctx.commit(minted.streams, minted.decide, { known });
    return minted.response;
  },
});
