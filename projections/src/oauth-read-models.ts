// Query functions over the OAuth tables; shapes match the services' OAuthReadModels port.
import type { Queryable } from './projection.js';

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
    async oauthDeviceOfUserCode(userCodeDigest: string) {
      const { rows } = await db.query<{ device_digest: string }>(
        `SELECT device_digest FROM rm_oauth_device_codes WHERE user_code_digest = $1`,
        [userCodeDigest],
      );
      return rows[0]?.device_digest ?? null;
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
