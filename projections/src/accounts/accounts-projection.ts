import type { EventData } from '@tributary/domain';
import {
  runStatements,
  type ProjectedEvent,
  type Projection,
  type SqlStatement,
} from '../shared/projection.js';

function accountStatements(e: ProjectedEvent): SqlStatement[] {
  const accountId = e.stream.slice('account-'.length);
  if (e.type === 'account.email_verified')
    return [
      {
        text: `UPDATE rm_accounts SET email_verified_at = $2 WHERE account_id = $1 AND email = $3`,
        values: [accountId, e.occurredAt, (e.data as EventData<'account.email_verified'>).email],
      },
    ];
  if (e.type === 'account.discovery_set')
    return [
      {
        text: `UPDATE rm_accounts SET discoverable = $2 WHERE account_id = $1`,
        values: [accountId, (e.data as EventData<'account.discovery_set'>).discoverable],
      },
    ];
  if (e.type === 'account.time_zone_set')
    return [
      {
        text: `UPDATE rm_accounts SET time_zone = $2 WHERE account_id = $1`,
        values: [accountId, (e.data as EventData<'account.time_zone_set'>).timeZone],
      },
    ];
  // The password hash stays in the log only; the read model never holds it.
  const d = e.data as EventData<'account.registered'>;
  return [
    {
      text: `INSERT INTO rm_accounts (account_id, agent_id, email, handle, created_at) VALUES ($1, $2, $3, $4, $5)`,
      values: [d.accountId, d.agentId, d.email ?? null, d.handle ?? null, e.occurredAt],
    },
  ];
}

export const accountsProjection: Projection = {
  name: 'accounts',
  mode: 'inline',
  tables: ['rm_accounts'],
  handles: ['account.registered', 'account.email_verified', 'account.discovery_set', 'account.time_zone_set'],
  statements: accountStatements,
  apply: (db, e) => runStatements(db, accountStatements(e)),
};

function sessionStatements(e: ProjectedEvent): SqlStatement[] {
  if (e.type === 'session.started') {
    const d = e.data as EventData<'session.started'>;
    return [
      {
        text: `INSERT INTO rm_sessions (session_id, account_id, token_hash, expires_at, started_at) VALUES ($1, $2, $3, $4, $5)`,
        values: [d.sessionId, d.accountId, d.tokenHash, d.expiresAt, e.occurredAt],
      },
    ];
  }
  return [
    {
      text: `UPDATE rm_sessions SET ended_at = $2 WHERE session_id = $1`,
      values: [e.stream.slice('session-'.length), e.occurredAt],
    },
  ];
}

export const sessionsProjection: Projection = {
  name: 'sessions',
  mode: 'inline',
  tables: ['rm_sessions'],
  handles: ['session.started', 'session.ended'],
  statements: sessionStatements,
  apply: (db, e) => runStatements(db, sessionStatements(e)),
};
