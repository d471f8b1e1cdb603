// Remote-viewer credentials in PostgreSQL (assistant_remote_viewer_credentials): the digest of the
// cookie's secret, the visitor's local agent and home, expiry and revocation.
import type { RemoteViewerCredentials } from '@tributary/services';
import type { Pool } from 'pg';

interface Row {
  credential_id: string;
  token_hash: string;
  agent_id: string;
  home: string;
  created_at: Date;
  expires_at: Date;
  revoked_at: Date | null;
}

export function createPgRemoteViewerCredentials(pool: Pool): RemoteViewerCredentials {
  return {
    async insert(r) {
      await pool.query(
        `INSERT INTO assistant_remote_viewer_credentials (credential_id, token_hash, agent_id, home, created_at, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6)`,
        [r.credentialId, r.tokenHash, r.agentId, r.home, r.createdAt, r.expiresAt],
      );
    },
    async byTokenHash(tokenHash) {
      const { rows } = await pool.query<Row>(
        `SELECT * FROM assistant_remote_viewer_credentials WHERE token_hash = $1`,
        [tokenHash],
      );
      const r = rows[0];
      return r
        ? {
            credentialId: r.credential_id,
            tokenHash: r.token_hash,
            agentId: r.agent_id,
            home: r.home,
            createdAt: r.created_at.toISOString(),
            expiresAt: r.expires_at.toISOString(),
            revokedAt: r.revoked_at?.toISOString() ?? null,
          }
        : null;
    },
    async revoke(credentialId, at) {
      const { rowCount } = await pool.query(
        `UPDATE assistant_remote_viewer_credentials SET revoked_at = coalesce(revoked_at, $2) WHERE credential_id = $1`,
        [credentialId, at],
      );
      return (rowCount ?? 0) > 0;
    },
  };
}
