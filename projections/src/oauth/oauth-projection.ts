// Inline projection of OAuth clients and refresh-token families, in the append's own transaction, so
// a client can use its registration at once and a revoked family is refused on the very next refresh.
// A family row also holds its current refresh token's facts and its stream's version: a refresh checks
// and rotates against that row (the append still checks the version) instead of folding the stream.
// Statements only (no reads), so a rotation is appended in one round trip.
import type {
  OAuthClientRegisteredData,
  OAuthDeviceRequestedData,
  OAuthFamilyRevokedData,
  OAuthRefreshIssuedData,
} from '@tributary/domain';
import {
  runStatements,
  textArray,
  type ProjectedEvent,
  type Projection,
  type SqlStatement,
} from '../shared/projection.js';

function oauthStatements(e: ProjectedEvent): SqlStatement[] {
  if (e.type === 'oauth_client.registered') {
    const d = e.data as OAuthClientRegisteredData;
    return [
      {
        text: `INSERT INTO rm_oauth_clients (client_id, client_name, redirect_uris, grant_types, scope, client_uri, registered_at)
         VALUES ($1, $2, ${textArray(3)}, ${textArray(4)}, $5, $6, $7)`,
        values: [
          d.clientId,
          d.clientName,
          JSON.stringify(d.redirectUris),
          JSON.stringify(d.grantTypes),
          d.scope ?? null,
          d.clientUri ?? null,
          e.occurredAt,
        ],
      },
    ];
  }
  if (e.type === 'oauth_refresh.issued') {
    const d = e.data as OAuthRefreshIssuedData;
    return [
      {
        text: `INSERT INTO rm_oauth_refresh_tokens (refresh_digest, family_id) VALUES ($1, $2)`,
        values: [d.refreshDigest, d.familyId],
      },
      {
        text: `INSERT INTO rm_oauth_families
           (family_id, client_id, account_id, scopes, created_at, persona_id, last_access_jti, current_refresh, stream_version)
         VALUES ($1, $2, $3, ${textArray(4)}, $5, $6, $7, $8::jsonb, $9)
         ON CONFLICT (family_id) DO UPDATE SET scopes = EXCLUDED.scopes, last_access_jti = EXCLUDED.last_access_jti,
           current_refresh = EXCLUDED.current_refresh, stream_version = EXCLUDED.stream_version`,
        values: [
          d.familyId,
          d.clientId,
          d.accountId,
          JSON.stringify(d.scopes),
          e.occurredAt,
          d.personaId ?? null,
          d.accessJti,
          JSON.stringify(d),
          e.streamVersion,
        ],
      },
    ];
  }
  if (e.type === 'oauth_device.requested') {
    const d = e.data as OAuthDeviceRequestedData;
    return [
      {
        text: `INSERT INTO rm_oauth_device_codes (user_code_digest, device_digest, expires_at) VALUES ($1, $2, $3)`,
        values: [d.userCodeDigest, d.deviceDigest, d.expiresAt],
      },
    ];
  }
  const d = e.data as OAuthFamilyRevokedData;
  return [
    {
      text: `UPDATE rm_oauth_families SET revoked_at = coalesce(revoked_at, $2), stream_version = $3 WHERE family_id = $1`,
      values: [d.familyId, e.occurredAt, e.streamVersion],
    },
  ];
}

export const oauthProjection: Projection = {
  name: 'oauth',
  mode: 'inline',
  tables: ['rm_oauth_clients', 'rm_oauth_refresh_tokens', 'rm_oauth_families', 'rm_oauth_device_codes'],
  handles: [
    'oauth_client.registered',
    'oauth_refresh.issued',
    'oauth_family.revoked',
    'oauth_device.requested',
  ],
  statements: oauthStatements,
  apply: (db, e) => runStatements(db, oauthStatements(e)),
};
