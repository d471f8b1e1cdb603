// grant_type=authorization_code: PKCE-verified, single-use. The code's stream is appended to with its
// expected version, so of two concurrent redemptions exactly one wins. A code presented again after
// it was redeemed revokes everything minted from it (OAuth 2.1 §4.1.3). Each wrong code_verifier is
// recorded on the code's stream; after OAUTH_CODE_MAX_WRONG_VERIFIERS the code is locked, so a stolen
// code cannot be tried against guessed verifiers until one fits.
import {
  decideRedeemOAuthCode,
  decideRefuseCodeVerifier,
  OAUTH_CODE_MAX_WRONG_VERIFIERS,
  oauthCodeLocked,
  oauthCodeStream,
  oauthError,
  type OAuthCodeState,
} from '@tributary/domain';
import { z } from 'zod';
import { defineOAuthOperation } from './oauth-operation.js';
import { loadStreamState, mintTokens, pkceMatches, requireClient, revokeFamily } from './grant-family.js';

export const exchangeOAuthCode = defineOAuthOperation({
  name: 'svc.oauth.token.authorization_code',
  title: 'Exchange an authorization code',
  description: 'OAuth token endpoint, authorization_code grant.',
  kind: 'command',
  public: true,
  scopes: [],
  enabledFor: [],
  ownEndpoint: true,
  actsForAgent: false,
  input: z.object({
    clientId: z.string().max(2000),
    code: z.string().max(200),
    redirectUri: z.string().max(2000),
    codeVerifier: z.string().max(200).optional(),
    resource: z.string().max(2000).optional(),
  }),
  async run(ctx, input) {
    const { services } = ctx;
    const client = await requireClient(ctx, input.clientId);
    const stream = oauthCodeStream(services.ids.sha256(input.code));
    const state = await loadStreamState<OAuthCodeState>(ctx, stream);
    const code = state.code;
    if (!code || code.clientId !== client.clientId)
      throw oauthError('invalid_grant', 'unknown authorization code');
    if (state.redeemed) {
      await revokeFamily(ctx, code.familyId, 'code_reuse');
      throw oauthError('invalid_grant', 'the authorization code was already used');
    }
    if (new Date(code.expiresAt) <= ctx.now)
      throw oauthError('invalid_grant', 'the authorization code expired');
    if (input.redirectUri !== code.redirectUri)
      throw oauthError('invalid_grant', 'redirect_uri does not match');
    if (!input.codeVerifier) throw oauthError('invalid_request', 'code_verifier is required');
    if (oauthCodeLocked(state)) decideRedeemOAuthCode(state); // throws: locked
    if (!(await pkceMatches(input.codeVerifier, code.codeChallenge))) {
      // Counted at the code's current version (a concurrent attempt loses with invalid_grant).
      await ctx.commit([stream], (states) => decideRefuseCodeVerifier(states.get(stream) as OAuthCodeState));
      const left = OAUTH_CODE_MAX_WRONG_VERIFIERS - state.wrongVerifiers - 1;
      throw oauthError(
        'invalid_grant',
        `the code_verifier does not match the challenge${left > 0 ? '' : '; the authorization code is now locked'}`,
      );
    }
    if (input.resource !== undefined && input.resource !== code.resource)
      throw oauthError('invalid_target', 'resource differs from the one consented to');
    const minted = await mintTokens(ctx, {
      familyId: code.familyId,
      clientId: client.clientId,
      clientName: client.clientName,
      accountId: code.accountId,
      agentId: code.agentId,
      personaId: code.personaId,
      scopes: code.scopes,
      resource: code.resource,
      grantedAt: ctx.now.toISOString(),
    });
    await ctx.commit(
      [stream, ...minted.streams],
      (states) => [...decideRedeemOAuthCode(states.get(stream) as OAuthCodeState), ...minted.decide(states)],
      { known: minted.known },
    );
    return minted.response;
  },
});
