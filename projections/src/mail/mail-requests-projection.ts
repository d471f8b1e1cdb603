// rm_mail_requests: each mail request's status, so the consumer finds due retries and the status
// counts requests without reading the log (docs/mail.md#guarantees). Inline: it moves with the append.
import type { EventData } from '@tributary/domain';
import {
  runStatements,
  type ProjectedEvent,
  type Projection,
  type Queryable,
  type SqlStatement,
} from '../shared/projection.js';
import { createSubmissionNoticeReadModels } from './submission-notices-projection.js';

const STATUS_OF: Record<string, string> = {
  'mail.sending': 'sending',
  'mail.sent': 'sent',
  'mail.attempt_failed': 'retrying',
  'mail.failed': 'failed',
  'mail.outcome_unknown': 'unknown',
};

function statements(e: ProjectedEvent): SqlStatement[] {
  if (e.type === 'mail.requested') {
    const d = e.data as EventData<'mail.requested'>;
    return [
      {
        text: `INSERT INTO rm_mail_requests (stream, requester, template, status, retry_at, created_at, updated_at)
               VALUES ($1, $2, $3, 'pending', NULL, $4, $4)`,
        values: [
          e.stream,
          d.requester.kind === 'peer' ? `peer:${d.requester.peerId}` : 'instance',
          d.template,
          e.occurredAt,
        ],
      },
    ];
  }
  const retryAt =
    e.type === 'mail.attempt_failed' ? (e.data as EventData<'mail.attempt_failed'>).retryAt : null;
  return [
    {
      text: `UPDATE rm_mail_requests SET status = $2, retry_at = $3, updated_at = $4 WHERE stream = $1`,
      values: [e.stream, STATUS_OF[e.type]!, retryAt, e.occurredAt],
    },
  ];
}

export const mailRequestsProjection: Projection = {
  name: 'mail-requests',
  mode: 'inline',
  tables: ['rm_mail_requests'],
  handles: ['mail.requested', ...Object.keys(STATUS_OF)],
  statements,
  apply: (db, e) => runStatements(db, statements(e)),
};

/** The mail area's queries (services/src/mail/ports.ts `MailReadModels`). */
export function createMailReadModels(db: Queryable) {
  return {
    ...createSubmissionNoticeReadModels(db),
    async dueRetries(now: Date, limit: number) {
      const { rows } = await db.query<{ stream: string; status: string; retry_at: Date | null }>(
        `SELECT stream, status, retry_at FROM rm_mail_requests
         WHERE status = 'retrying' AND retry_at <= $1 ORDER BY retry_at LIMIT $2`,
        [now, limit],
      );
      return rows.map((r) => ({
        stream: r.stream,
        status: r.status,
        retryAt: r.retry_at?.toISOString() ?? null,
      }));
    },
    async recent(limit: number) {
      const { rows } = await db.query<{ stream: string; status: string; retry_at: Date | null }>(
        `SELECT stream, status, retry_at FROM rm_mail_requests ORDER BY created_at DESC, stream LIMIT $1`,
        [limit],
      );
      return rows.map((r) => ({
        stream: r.stream,
        status: r.status,
        retryAt: r.retry_at?.toISOString() ?? null,
      }));
    },
    async countsByStatus() {
      const { rows } = await db.query<{ status: string; n: number }>(
        `SELECT status, count(*)::int AS n FROM rm_mail_requests GROUP BY status`,
      );
      return Object.fromEntries(rows.map((r) => [r.status, r.n]));
    },
  };
}
