import type { EventData } from '@tributary/domain';
import type { Projection } from './projection.js';

export const accountsProjection: Projection = {
  name: 'accounts',
  mode: 'inline',
  tables: ['rm_accounts'],
  handles: ['account.registered'],
  async apply(db, e) {
    // The password hash stays in the log only; the read model never holds it.
    const d = e.data as EventData<'account.registered'>;
    await db.query(
      `INSERT INTO rm_accounts (account_id, agent_id, email, handle, created_at) VALUES ($1, $2, $3, $4, $5)`,
      [d.accountId, d.agentId, d.email ?? null, d.handle ?? null, e.occurredAt],
    );
  },
};

export const sessionsProjection: Projection = {
  name: 'sessions',
  mode: 'inline',
  tables: ['rm_sessions'],
  handles: ['session.started', 'session.ended'],
  async apply(db, e) {
    if (e.type === 'session.started') {
      const d = e.data as EventData<'session.started'>;
      await db.query(
        `INSERT INTO rm_sessions (session_id, account_id, token_hash, expires_at, started_at) VALUES ($1, $2, $3, $4, $5)`,
        [d.sessionId, d.accountId, d.tokenHash, d.expiresAt, e.occurredAt],
      );
      return;
    }
    await db.query(`UPDATE rm_sessions SET ended_at = $2 WHERE session_id = $1`, [
      e.stream.slice('session-'.length),
      e.occurredAt,
    ]);
  },
};
