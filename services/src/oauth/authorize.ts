// POST /api/mcp/oauth/authorize (the consent form's target): a signed-in person approves a client; this
// mints a single-use code bound to client, redirect URI, PKCE challenge, scopes, persona and resource.
// Only its digest is stored (stream `oauth-code-<digest>`).
import {
  decideIssueOAuthCode,
  oauthCodeStream,
  oauthError,
  scopeGrantable,
  scopeSchema,
  type OAuthCodeState,
} from '@tributary/domain';
import { z } from 'zod';
import { defineOAuthOperation } from './oauth-operation.js';
import { PKCE_CHALLENGE, redirectMatches, requireClient } from './grant-family.js';
import { requestedScopes } from './scopes.js';
import { targetAgentId } from '../shared/schemas.js';

export const authorizeOAuthClient = defineOAuthOperation({
  name: 'svc.oauth.authorize',
  title: 'Approve an OAuth client',
  description: 'Consent: mint an authorization code for a registered client. Session only.',
  kind: 'command',
  scopes: [],
  enabledFor: [],
  ownEndpoint: true,
  input: z.strictObject({
    clientId: z.string().max(2000),
    redirectUri: z.string().max(2000),
    codeChallenge: z.string().max(200),
    codeChallengeMethod: z.string().max(20),
    scopes: z.array(scopeSchema).max(64),
    resource: z.string().max(2000).optional(),
    targetAgentId: targetAgentId.describe('the persona the client will act as'),
  }),
  async run(ctx, input) {
    const { principal, services, actor } = ctx;
    if (principal.kind !== 'session')
      throw oauthError('access_denied', 'only a signed-in person may consent');
    const client = await requireClient(ctx, input.clientId);
    if (!redirectMatches(client.redirectUris, input.redirectUri))
      throw oauthError('invalid_redirect_uri', 'the redirect_uri is not registered for this client');
    if (input.codeChallengeMethod !== 'S256') throw oauthError('invalid_request', 'PKCE S256 is required');
    if (!PKCE_CHALLENGE.test(input.codeChallenge)) throw oauthError('invalid_request', 'bad code_challenge');
    const audience = services.tokens.accessTokens?.audience;
    if (!audience) throw oauthError('temporarily_unavailable', 'this process does not issue tokens');
    if (input.resource !== undefined && input.resource !== audience)
      throw oauthError('invalid_target', 'the only resource here is the MCP endpoint');
    const scopes = requestedScopes(client, input.scopes, ctx.services.config.scopesSupported);
    const isInstanceController = ctx.instance.controllers.includes(principal.accountId);
    for (const s of scopes)
      if (!scopeGrantable(s, { isInstanceController }))
        throw oauthError('invalid_scope', `you may not grant ${s}`);
    const code = services.ids.secret(32);
    const codeDigest = services.ids.sha256(code);
    const stream = oauthCodeStream(codeDigest);
    await ctx.commit([stream], (states) =>
      decideIssueOAuthCode(
        {
          codeDigest,
          clientId: client.clientId,
          accountId: principal.accountId,
          agentId: principal.agentId,
          ...(actor.agentId !== principal.agentId && { personaId: actor.agentId }),
          redirectUri: input.redirectUri,
          codeChallenge: input.codeChallenge,
          scopes,
          resource: audience,
          familyId: services.ids.entityId(),
          expiresAt: new Date(ctx.now.getTime() + ctx.services.config.oauth.codeSeconds * 1000).toISOString(),
        },
        states.get(stream) as OAuthCodeState,
      ),
    );
    return { code };
  },
});
