// The accounts area's queries: an account by id or by what a person signs in with, a session.
import type { Queryable } from '../shared/projection.js';
import { iso } from '../shared/iso.js';

interface AccountRow {
  account_id: string;
  agent_id: string;
  email: string | null;
  handle: string | null;
  created_at: Date;
  email_verified_at: Date | null;
  time_zone: string | null;
}
const toAccount = (r: AccountRow) => ({
  accountId: r.account_id,
  agentId: r.agent_id,
  email: r.email,
  handle: r.handle,
  createdAt: iso(r.created_at)!,
  emailVerifiedAt: iso(r.email_verified_at),
  timeZone: r.time_zone,
});

export function createAccountReadModels(db: Queryable) {
  return {
    async accountById(accountId: string) {
      const { rows } = await db.query<AccountRow>(`SELECT * FROM rm_accounts WHERE account_id = $1`, [
        accountId,
      ]);
      return rows[0] ? toAccount(rows[0]) : null;
    },
    async accountByIdentifier(identifier: string) {
      const { rows } = await db.query<AccountRow>(
        `SELECT * FROM rm_accounts WHERE email = $1 OR handle = $1 LIMIT 1`,
        [identifier],
      );
      return rows[0] ? toAccount(rows[0]) : null;
    },
    async sessionByTokenHash(tokenHash: string) {
      const { rows } = await db.query<{
        session_id: string;
        account_id: string;
        expires_at: Date;
        ended_at: Date | null;
      }>(`SELECT session_id, account_id, expires_at, ended_at FROM rm_sessions WHERE token_hash = $1`, [
        tokenHash,
      ]);
      const r = rows[0];
      return r
        ? {
            sessionId: r.session_id,
            accountId: r.account_id,
            expiresAt: iso(r.expires_at)!,
            endedAt: iso(r.ended_at),
          }
        : null;
    },
  };
}
