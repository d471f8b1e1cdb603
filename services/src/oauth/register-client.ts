// POST /api/mcp/oauth/register (RFC 7591): any client may register itself; the registration is an event,
// so it survives restarts. Every client is public (PKCE, no secret): an MCP client on a laptop cannot
// keep one. Not in the catalogue: its payload is the RFC's, not a tool's.
import {
  decideRegisterOAuthClient,
  isHttpUrl,
  oauthClientStream,
  oauthError,
  type OAuthClientState,
} from '@tributary/domain';
import { z } from 'zod';
import { defineOAuthOperation } from './oauth-operation.js';
import { checkRegisteredScope } from './scopes.js';

export const OAUTH_GRANT_TYPES = [
  'authorization_code',
  'refresh_token',
  'urn:ietf:params:oauth:grant-type:device_code',
] as const;

const LOOPBACK = new Set(['127.0.0.1', '[::1]', 'localhost']);
export const isLoopbackHost = (hostname: string) => LOOPBACK.has(hostname);

/** https anywhere, or http on loopback (RFC 8252 §7.3); never a fragment or a wildcard. */
function checkRedirectUri(raw: string): string {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw oauthError('invalid_redirect_uri', 'a redirect_uri is not an absolute URL');
  }
  if (raw.includes('#') || u.hash)
    throw oauthError('invalid_redirect_uri', 'a redirect_uri may not have a fragment');
  if (raw.includes('*')) throw oauthError('invalid_redirect_uri', 'a redirect_uri may not have a wildcard');
  if (u.username || u.password)
    throw oauthError('invalid_redirect_uri', 'a redirect_uri may not carry credentials');
  if (u.protocol === 'https:') return raw;
  if (u.protocol === 'http:' && isLoopbackHost(u.hostname)) return raw;
  throw oauthError('invalid_redirect_uri', 'a redirect_uri must be https, or http on a loopback address');
}

/** The RFC 7591 fields we use, as a registration or a Client ID Metadata Document carries them. */
interface ClientMetadataFields {
  redirect_uris?: string[] | undefined;
  client_name?: string | undefined;
  client_uri?: string | undefined;
  grant_types?: string[] | undefined;
  response_types?: string[] | undefined;
  scope?: string | undefined;
}

/** Checks client metadata as registration does (RFC 7591 error codes); shared with metadata documents. */
export function validateClientMetadata(input: ClientMetadataFields, scopesSupported: readonly string[]) {
  const grantTypes = input.grant_types ?? ['authorization_code', 'refresh_token'];
  for (const g of grantTypes)
    if (!(OAUTH_GRANT_TYPES as readonly string[]).includes(g))
      throw oauthError('invalid_client_metadata', `grant type ${g} is not supported`);
  for (const t of input.response_types ?? ['code'])
    if (t !== 'code') throw oauthError('invalid_client_metadata', `response type ${t} is not supported`);
  const usesRedirects = grantTypes.includes('authorization_code');
  const redirectUris = (input.redirect_uris ?? []).map(checkRedirectUri);
  if (usesRedirects && redirectUris.length === 0)
    throw oauthError('invalid_redirect_uri', 'the authorization_code grant needs a redirect_uri');
  if (input.client_uri !== undefined && !isHttpUrl(input.client_uri))
    throw oauthError(
      'invalid_client_metadata',
      'client_uri must be an absolute http(s) URL without credentials',
    );
  const scope = checkRegisteredScope(input.scope, scopesSupported);
  return {
    clientName: input.client_name || 'Unnamed client',
    redirectUris,
    grantTypes,
    usesRedirects,
    scope,
  };
}

export const registerOAuthClient = defineOAuthOperation({
  name: 'svc.oauth.register',
  title: 'Register an OAuth client',
  description: 'Dynamic client registration (RFC 7591) for a public client using PKCE.',
  kind: 'command',
  public: true,
  scopes: [],
  enabledFor: [],
  ownEndpoint: true,
  actsForAgent: false,
  // Clients send many optional RFC 7591 fields; the ones we do not use are ignored, not refused.
  input: z.object({
    redirect_uris: z.array(z.string().max(2000)).max(20).optional(),
    client_name: z.string().trim().max(200).optional(),
    client_uri: z.string().max(2000).optional(),
    grant_types: z.array(z.string()).max(10).optional(),
    response_types: z.array(z.string()).max(10).optional(),
    scope: z.string().max(2000).optional(),
    token_endpoint_auth_method: z.string().optional(),
  }),
  async run(ctx, input) {
    const { clientName, redirectUris, grantTypes, usesRedirects, scope } = validateClientMetadata(
      input,
      ctx.services.config.scopesSupported,
    );
    const clientId = ctx.services.ids.entityId();
    const stream = oauthClientStream(clientId);
    const data = {
      clientId,
      clientName,
      redirectUris,
      grantTypes,
      ...(scope && { scope }),
      ...(input.client_uri && { clientUri: input.client_uri }),
    };
    await ctx.commit([stream], (states) =>
      decideRegisterOAuthClient(data, states.get(stream) as OAuthClientState),
    );
    return {
      client_id: clientId,
      client_id_issued_at: Math.floor(ctx.now.getTime() / 1000),
      client_name: clientName,
      redirect_uris: redirectUris,
      grant_types: grantTypes,
      response_types: usesRedirects ? ['code'] : [],
      token_endpoint_auth_method: 'none',
      ...(scope && { scope }),
      ...(input.client_uri && { client_uri: input.client_uri }),
    };
  },
});
