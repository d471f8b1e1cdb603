import type { OAuthClientView } from './oauth-read-models.js';

/**
 * Where OAuth clients are looked up: a registered client (RFC 7591) from its read model, or — for a
 * client_id that is an URL — its Client ID Metadata Document, fetched with SSRF guards, size and time
 * limits, and cached.
 */
export interface OAuthClientDirectory {
  /** Null for an unknown registered client; throws `oauth.invalid_client` when a document cannot be used. */
  find(clientId: string): Promise<OAuthClientView | null>;
}
