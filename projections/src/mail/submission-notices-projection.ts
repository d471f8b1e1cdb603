// rm_mail_submission_notices: the forms whose submission mail is waiting, and until when, so the
// notifier finds the due ones without reading the log (docs/builder.md#submission-mail). Inline: it
// moves with the append.
import type { EventData } from '@tributary/domain';
import {
  runStatements,
  type ProjectedEvent,
  type Projection,
  type Queryable,
  type SqlStatement,
} from '../shared/projection.js';

function statements(e: ProjectedEvent): SqlStatement[] {
  switch (e.type) {
    case 'mail.submission_notice_deferred': {
      const d = e.data as EventData<'mail.submission_notice_deferred'>;
      return [
        {
          text: `INSERT INTO rm_mail_submission_notices (form_id, pending, due_at) VALUES ($1, 1, $2)
                 ON CONFLICT (form_id) DO UPDATE SET pending = rm_mail_submission_notices.pending + 1, due_at = $2`,
          values: [d.formId, d.dueAt],
        },
      ];
    }
    case 'mail.submission_notice_postponed': {
      const d = e.data as EventData<'mail.submission_notice_postponed'>;
      return [
        {
          text: `UPDATE rm_mail_submission_notices SET due_at = $2 WHERE form_id = $1`,
          values: [d.formId, d.dueAt],
        },
      ];
    }
    case 'mail.submission_notice_queued':
    case 'mail.submission_notice_dropped': {
      const d = e.data as { formId: string };
      return [{ text: `DELETE FROM rm_mail_submission_notices WHERE form_id = $1`, values: [d.formId] }];
    }
    default:
      return [];
  }
}

export const submissionNoticesProjection: Projection = {
  name: 'mail-submission-notices',
  mode: 'inline',
  tables: ['rm_mail_submission_notices'],
  handles: [
    'mail.submission_notice_deferred',
    'mail.submission_notice_postponed',
    'mail.submission_notice_queued',
    'mail.submission_notice_dropped',
  ],
  statements,
  apply: (db, e) => runStatements(db, statements(e)),
};

/** The notifier's reads: due waiting mails, and the owner's address for them. */
export function createSubmissionNoticeReadModels(db: Queryable) {
  return {
    async dueSubmissionNotices(now: Date, limit: number) {
      const { rows } = await db.query<{ form_id: string }>(
        `SELECT form_id FROM rm_mail_submission_notices WHERE pending > 0 AND due_at <= $1
         ORDER BY due_at, form_id LIMIT $2`,
        [now, limit],
      );
      return rows.map((r) => r.form_id);
    },
    async ownerAddress(agentId: string) {
      // The agent's own account, or that of the person a persona belongs to.
      const { rows } = await db.query<{
        email: string | null;
        email_verified_at: Date | null;
        persona: boolean;
      }>(
        `SELECT a.email, a.email_verified_at, a.agent_id <> $1 AS persona FROM rm_accounts a
         WHERE a.agent_id = $1 OR a.agent_id = (SELECT g.owner_agent_id FROM rm_agents g WHERE g.agent_id = $1)
         ORDER BY (a.agent_id = $1) DESC LIMIT 1`,
        [agentId],
      );
      const r = rows[0];
      return r ? { email: r.email, verified: r.email_verified_at !== null, persona: r.persona } : null;
    },
  };
}
