// Client ID Metadata Documents (draft-ietf-oauth-client-id-metadata-document; preferred by the MCP
// authorization specification over registration): a client_id that is an https URL names a JSON
// document holding the client's metadata. Here: which URLs may be such a client_id, and what a fetched
// document must say. Fetching (SSRF guard, size and time limits, cache) is the adapter's.
import { isDomainError, oauthError } from '@tributary/domain';
import { z } from 'zod';
import type { OAuthClientView } from './ports/oauth-read-models.js';
import { isLoopbackHost, validateClientMetadata } from './register-client.js';

/** Whether a client_id names a metadata document (a URL) rather than a registration (a UUID). */
export const isClientIdUrl = (clientId: string) => /^https?:\/\//i.test(clientId);

/**
 * The client_id URL, checked: https, a path, no dot segments, no fragment, no credentials. `http` on a
 * loopback host only where private addresses are allowed anyway (development and test).
 */
export function checkClientIdUrl(raw: string, o: { allowLoopbackHttp: boolean }): URL {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw oauthError('invalid_client', 'the client_id is not a URL');
  }
  if (
    u.protocol !== 'https:' &&
    !(o.allowLoopbackHttp && u.protocol === 'http:' && isLoopbackHost(u.hostname))
  )
    throw oauthError('invalid_client', 'a client_id URL must be https');
  if (u.username || u.password)
    throw oauthError('invalid_client', 'a client_id URL may not carry credentials');
  if (raw.includes('#')) throw oauthError('invalid_client', 'a client_id URL may not have a fragment');
  if (u.pathname === '/' || u.pathname === '')
    throw oauthError('invalid_client', 'a client_id URL must have a path');
  // new URL() resolves dot segments away; the draft forbids them in the identifier itself.
  if (/\/\.{1,2}(\/|$|\?)/.test(raw.replace(/^[a-z]+:\/\/[^/]+/i, '')))
    throw oauthError('invalid_client', 'a client_id URL may not have . or .. segments');
  return u;
}

const documentSchema = z.looseObject({
  client_id: z.string(),
  client_name: z.string().trim().max(200).optional(),
  client_uri: z.string().max(2000).optional(),
  redirect_uris: z.array(z.string().max(2000)).max(20).optional(),
  grant_types: z.array(z.string()).max(10).optional(),
  response_types: z.array(z.string()).max(10).optional(),
  scope: z.string().max(2000).optional(),
  token_endpoint_auth_method: z.string().optional(),
});

/**
 * The client a fetched document describes, checked as registration checks metadata. Every fault is
 * `invalid_client` (the client cannot be identified), its description saying which.
 */
export function clientFromMetadataDocument(
  url: string,
  body: unknown,
  fetchedAt: Date,
  scopesSupported: readonly string[],
): OAuthClientView {
  const parsed = documentSchema.safeParse(body);
  if (!parsed.success) throw oauthError('invalid_client', 'the client metadata document is malformed');
  const doc = parsed.data;
  if (doc.client_id !== url)
    throw oauthError('invalid_client', 'the client_id in the metadata document is not its URL');
  // No shared secret can be established with a document (draft §4.1): public clients only.
  if ('client_secret' in doc || 'client_secret_expires_at' in doc)
    throw oauthError('invalid_client', 'a client metadata document may not carry a client_secret');
  if (doc.token_endpoint_auth_method !== undefined && doc.token_endpoint_auth_method !== 'none')
    throw oauthError('invalid_client', 'only token_endpoint_auth_method "none" is supported');
  let checked: ReturnType<typeof validateClientMetadata>;
  try {
    checked = validateClientMetadata(doc, scopesSupported);
  } catch (e) {
    if (isDomainError(e)) throw oauthError('invalid_client', `client metadata document: ${e.message}`);
    throw e;
  }
  return {
    clientId: url,
    // Unnamed: the host that publishes the document is what a person can recognize.
    clientName: doc.client_name || new URL(url).host,
    redirectUris: checked.redirectUris,
    grantTypes: checked.grantTypes,
    scope: checked.scope ?? null,
    clientUri: doc.client_uri ?? null,
    registeredAt: fetchedAt.toISOString(),
  };
}
