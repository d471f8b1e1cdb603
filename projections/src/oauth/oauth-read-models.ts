// Query functions over the OAuth tables; shapes match the services' OAuthReadModels port.
import type { OAuthRefreshIssuedData } from '@tributary/domain';
import type { Queryable } from '../shared/projection.js';

interface ClientRow {
  client_id: string;
  client_name: string;
  redirect_uris: string[];
  grant_types: string[];
  scope: string | null;
  client_uri: string | null;
  registered_at: Date;
}

export function createOAuthReadModels(db: Queryable) {
  return {
    async oauthClient(clientId: string) {
      const { rows } = await db.query<ClientRow>(`SELECT * FROM rm_oauth_clients WHERE client_id = $1`, [
        clientId,
      ]);
      const r = rows[0];
      if (!r) return null;
      return {
        clientId: r.client_id,
        clientName: r.client_name,
        redirectUris: r.redirect_uris,
        grantTypes: r.grant_types,
        scope: r.scope,
        clientUri: r.client_uri,
        registeredAt: r.registered_at.toISOString(),
      };
    },
    async oauthGrantsOf(accountId: string) {
      const { rows } = await db.query<{
        family_id: string;
        client_id: string;
        client_name: string | null;
        scopes: string[];
        persona_id: string | null;
        created_at: Date;
        revoked_at: Date | null;
        last_used_at: Date | null;
      }>(
        `SELECT f.*, c.client_name,
           (SELECT max(p.occurred_at) FROM rm_provenance p JOIN rm_mcp_tokens t ON t.jti = p.token_jti
             WHERE t.client = f.client_id AND t.account_id = f.account_id) AS last_used_at
         FROM rm_oauth_families f LEFT JOIN rm_oauth_clients c ON c.client_id = f.client_id
         WHERE f.account_id = $1 ORDER BY f.created_at DESC`,
        [accountId],
      );
      return rows.map((r) => ({
        familyId: r.family_id,
        clientId: r.client_id,
        clientName: r.client_name ?? r.client_id,
        scopes: r.scopes,
        personaId: r.persona_id,
        createdAt: r.created_at.toISOString(),
        revokedAt: r.revoked_at ? r.revoked_at.toISOString() : null,
        lastUsedAt: r.last_used_at ? r.last_used_at.toISOString() : null,
      }));
    },
    async oauthDeviceOfUserCode(userCodeDigest: string) {
      const { rows } = await db.query<{ device_digest: string }>(
        `SELECT device_digest FROM rm_oauth_device_codes WHERE user_code_digest = $1`,
        [userCodeDigest],
      );
      return rows[0]?.device_digest ?? null;
    },
    async oauthFamilyOfRefreshState(refreshDigest: string) {
      const { rows } = await db.query<{
        family_id: string;
        current_refresh: OAuthRefreshIssuedData | null;
        stream_version: number | null;
        revoked_at: Date | null;
        created_at: Date | null;
      }>(
        `SELECT r.family_id, f.current_refresh, f.stream_version, f.revoked_at, f.created_at
         FROM rm_oauth_refresh_tokens r LEFT JOIN rm_oauth_families f ON f.family_id = r.family_id
         WHERE r.refresh_digest = $1`,
        [refreshDigest],
      );
      const r = rows[0];
      if (!r) return null;
      return {
        familyId: r.family_id,
        current: r.current_refresh && r.stream_version !== null ? r.current_refresh : null,
        streamVersion: r.stream_version,
        revoked: r.revoked_at !== null,
        createdAt: r.created_at ? r.created_at.toISOString() : null,
      };
    },
    async oauthAccessTokenClient(jti: string) {
      // An OAuth access token is a token record whose `client` is a client this account granted.
      const { rows } = await db.query<{ client: string }>(
        `SELECT t.client FROM rm_mcp_tokens t
          WHERE t.jti = $1 AND t.client IS NOT NULL
            AND EXISTS (SELECT 1 FROM rm_oauth_families f WHERE f.account_id = t.account_id AND f.client_id = t.client)`,
        [jti],
      );
      return rows[0]?.client ?? null;
    },
    async oauthFamilyOfRefresh(refreshDigest: string) {
      const { rows } = await db.query<{ family_id: string }>(
        `SELECT family_id FROM rm_oauth_refresh_tokens WHERE refresh_digest = $1`,
        [refreshDigest],
      );
      return rows[0]?.family_id ?? null;
    },
  };
}
