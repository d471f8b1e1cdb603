// rm_sso_issued, rm_sso_sessions, rm_sso_authority (docs/sso.md): the assertions issued here, the
// sign-ons accepted here, and per agent the credential version its latest authority revocation set —
// ours, or imported from the person's home (its actor is then already the local agent bound to them).
import type { EventData } from '@tributary/domain';
import { runStatements, type Projection, type Queryable, type SqlStatement } from '../shared/projection.js';

export const ssoProjection: Projection = {
  name: 'sso',
  mode: 'inline',
  tables: ['rm_sso_issued', 'rm_sso_sessions', 'rm_sso_authority', 'rm_sso_homes', 'rm_sso_account_links'],
  // An authority revocation may come from the person's home.
  foldsImported: true,
  handles: [
    'sso.assertion_issued',
    'sso.assertion_accepted',
    'sso.authority_revoked',
    'sso.home_recorded',
    'sso.account_linked',
  ],
  statements(e): SqlStatement[] {
    if (e.type === 'sso.home_recorded') {
      const d = e.data as EventData<'sso.home_recorded'>;
      return [
        {
          text: `INSERT INTO rm_sso_homes (agent_id, account_id, peer_id, recorded_at) VALUES ($1, $2, $3, $4)
                 ON CONFLICT (agent_id) DO NOTHING`,
          values: [d.agentId, d.accountId, d.peerId, e.occurredAt],
        },
      ];
    }
    if (e.type === 'sso.account_linked') {
      const d = e.data as EventData<'sso.account_linked'>;
      return [
        {
          text: `INSERT INTO rm_sso_account_links (account_id, agent_id, origin, remote_agent_id, via, linked_at)
                 VALUES ($1, $2, $3, $4, $5, $6)`,
          values: [d.accountId, d.agentId, d.origin, d.remoteAgentId, d.via, e.occurredAt],
        },
      ];
    }
    if (e.type === 'sso.assertion_issued') {
      const d = e.data as EventData<'sso.assertion_issued'>;
      return [
        {
          text: `INSERT INTO rm_sso_issued (nonce, agent_id, audience, credential_version, issued_at, expires_at)
                 VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (nonce) DO NOTHING`,
          values: [d.nonce, d.agentId, d.audience, d.credentialVersion, d.issuedAt, d.expiresAt],
        },
      ];
    }
    if (e.type === 'sso.assertion_accepted') {
      const d = e.data as EventData<'sso.assertion_accepted'>;
      return [
        {
          text: `INSERT INTO rm_sso_sessions (credential_id, agent_id, issuer_instance_id, home, credential_version, accepted_at, expires_at)
                 VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (credential_id) DO NOTHING`,
          values: [
            d.credentialId,
            d.agentId,
            d.issuerInstanceId,
            d.home,
            d.credentialVersion,
            e.occurredAt,
            d.expiresAt,
          ],
        },
      ];
    }
    const d = e.data as EventData<'sso.authority_revoked'>;
    return [
      {
        text: `INSERT INTO rm_sso_authority (agent_id, credential_version, revoked_at) VALUES ($1, $2, $3)
               ON CONFLICT (agent_id) DO UPDATE SET credential_version = EXCLUDED.credential_version,
                 revoked_at = EXCLUDED.revoked_at
               WHERE rm_sso_authority.credential_version < EXCLUDED.credential_version`,
        values: [e.actorId, d.credentialVersion, d.revokedAt],
      },
    ];
  },
  async apply(db, e) {
    await runStatements(db, ssoProjection.statements!(e)!);
  },
};

/** The single-sign-on area's queries (services/src/ports/sso.ts `SsoReadModels`). */
export function createSsoReadModels(db: Queryable) {
  return {
    async localAgentOf(origin: string, remoteAgentId: string): Promise<string | null> {
      const { rows } = await db.query<{ local_agent_id: string }>(
        'SELECT local_agent_id FROM rm_remote_agents WHERE origin = $1 AND remote_agent_id = $2',
        [origin, remoteAgentId],
      );
      return rows[0]?.local_agent_id ?? null;
    },
    async homeOf(agentId: string): Promise<string | null> {
      const { rows } = await db.query<{ peer_id: string }>(
        'SELECT peer_id FROM rm_sso_homes WHERE agent_id = $1',
        [agentId],
      );
      return rows[0]?.peer_id ?? null;
    },
    async linkOfAccount(accountId: string) {
      const { rows } = await db.query<{ agent_id: string; origin: string; remote_agent_id: string }>(
        'SELECT agent_id, origin, remote_agent_id FROM rm_sso_account_links WHERE account_id = $1',
        [accountId],
      );
      const r = rows[0];
      return r ? { agentId: r.agent_id, origin: r.origin, remoteAgentId: r.remote_agent_id } : null;
    },
    async accountLinkedTo(origin: string, remoteAgentId: string): Promise<string | null> {
      const { rows } = await db.query<{ account_id: string }>(
        'SELECT account_id FROM rm_sso_account_links WHERE origin = $1 AND remote_agent_id = $2',
        [origin, remoteAgentId],
      );
      return rows[0]?.account_id ?? null;
    },
    async accountOfAgent(agentId: string): Promise<string | null> {
      const { rows } = await db.query<{ account_id: string }>(
        'SELECT account_id FROM rm_accounts WHERE agent_id = $1 LIMIT 1',
        [agentId],
      );
      return rows[0]?.account_id ?? null;
    },
    async credentialVersion(agentId: string): Promise<number> {
      const { rows } = await db.query<{ credential_version: number }>(
        'SELECT credential_version FROM rm_sso_authority WHERE agent_id = $1',
        [agentId],
      );
      return rows[0]?.credential_version ?? 0;
    },
    async sessions(agentId: string, limit: number) {
      const { rows } = await db.query<{
        credential_id: string;
        agent_id: string;
        issuer_instance_id: string;
        home: string;
        credential_version: number;
        accepted_at: Date;
        expires_at: Date;
        revoked_at: Date | null;
        authority_version: number | null;
        authority_revoked_at: Date | null;
      }>(
        `SELECT s.*, c.revoked_at, a.credential_version AS authority_version, a.revoked_at AS authority_revoked_at
           FROM rm_sso_sessions s
           LEFT JOIN assistant_remote_viewer_credentials c ON c.credential_id = s.credential_id
           LEFT JOIN rm_sso_authority a ON a.agent_id = s.agent_id
          WHERE s.agent_id = $1 ORDER BY s.accepted_at DESC LIMIT $2`,
        [agentId, limit],
      );
      return rows.map((r) => ({
        credentialId: r.credential_id,
        agentId: r.agent_id,
        issuerInstanceId: r.issuer_instance_id,
        home: r.home,
        credentialVersion: r.credential_version,
        acceptedAt: r.accepted_at.toISOString(),
        expiresAt: r.expires_at.toISOString(),
        endedAt:
          r.revoked_at?.toISOString() ??
          (r.authority_version !== null && r.authority_version > r.credential_version
            ? (r.authority_revoked_at?.toISOString() ?? null)
            : null),
      }));
    },
    async issuedTo(agentId: string, audience: string): Promise<boolean> {
      const { rowCount } = await db.query(
        'SELECT 1 FROM rm_sso_issued WHERE agent_id = $1 AND audience = $2 LIMIT 1',
        [agentId, audience],
      );
      return (rowCount ?? 0) > 0;
    },
    async issued(agentId: string, limit: number) {
      const { rows } = await db.query<{
        nonce: string;
        audience: string;
        credential_version: number;
        issued_at: Date;
        expires_at: Date;
      }>('SELECT * FROM rm_sso_issued WHERE agent_id = $1 ORDER BY issued_at DESC LIMIT $2', [
        agentId,
        limit,
      ]);
      return rows.map((r) => ({
        nonce: r.nonce,
        audience: r.audience,
        credentialVersion: r.credential_version,
        issuedAt: r.issued_at.toISOString(),
        expiresAt: r.expires_at.toISOString(),
      }));
    },
  };
}
