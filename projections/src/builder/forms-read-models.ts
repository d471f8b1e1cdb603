// Query functions over rm_builder_forms, rm_builder_submissions and rm_builder_form_refs, joined with
// the sites' read models for what a published version holds; shapes match the services' FormReadModels.
import type { FormField, SubmissionValues } from '@tributary/domain';
import type { Queryable } from '../shared/projection.js';

interface FormRow {
  form_id: string;
  owner_agent_id: string;
  name: string;
  fields: FormField[];
  success_message: string;
  submission_count: number;
  unread_count: number;
  unread_by_site: { siteId: string; count: number }[];
  seen_through: Date | null;
  created_at: Date;
  updated_at: Date;
}
const toForm = (r: FormRow) => ({
  formId: r.form_id,
  ownerAgentId: r.owner_agent_id,
  name: r.name,
  fields: r.fields,
  successMessage: r.success_message,
  submissionCount: Number(r.submission_count),
  unreadCount: Number(r.unread_count),
  unreadBySite: r.unread_by_site,
  seenThrough: r.seen_through?.toISOString() ?? null,
  createdAt: r.created_at.toISOString(),
  updatedAt: r.updated_at.toISOString(),
});
const FORM_COLUMNS = `f.*, (SELECT count(*) FROM rm_builder_submissions s WHERE s.form_id = f.form_id)::int AS submission_count,
  (SELECT count(*) FROM rm_builder_submissions s WHERE s.form_id = f.form_id
     AND (f.seen_through IS NULL OR s.received_at > f.seen_through))::int AS unread_count,
  (SELECT coalesce(json_agg(json_build_object('siteId', u.site_id, 'count', u.n) ORDER BY u.site_id), '[]'::json)
     FROM (SELECT s.site_id, count(*)::int AS n FROM rm_builder_submissions s WHERE s.form_id = f.form_id
             AND (f.seen_through IS NULL OR s.received_at > f.seen_through) GROUP BY s.site_id) u) AS unread_by_site`;

interface SubmissionRow {
  submission_id: string;
  form_id: string;
  site_id: string;
  values: SubmissionValues;
  received_at: Date;
}
const toSubmission = (r: SubmissionRow) => ({
  submissionId: r.submission_id,
  formId: r.form_id,
  siteId: r.site_id,
  values: r.values,
  receivedAt: r.received_at.toISOString(),
});

export function createFormReadModels(db: Queryable) {
  return {
    async formsOf(ownerAgentId: string) {
      const { rows } = await db.query<FormRow>(
        `SELECT ${FORM_COLUMNS} FROM rm_builder_forms f WHERE f.owner_agent_id = $1 ORDER BY f.created_at, f.form_id`,
        [ownerAgentId],
      );
      return rows.map(toForm);
    },
    async form(formId: string) {
      const { rows } = await db.query<FormRow>(
        `SELECT ${FORM_COLUMNS} FROM rm_builder_forms f WHERE f.form_id = $1`,
        [formId],
      );
      return rows[0] ? toForm(rows[0]) : null;
    },
    async submissionsOf(
      formId: string,
      page: { limit: number; after?: { receivedAt: string; submissionId: string } },
    ) {
      const { rows } = await db.query<SubmissionRow>(
        `SELECT * FROM rm_builder_submissions
         WHERE form_id = $1 AND ($2::timestamptz IS NULL OR (received_at, submission_id) < ($2::timestamptz, $3::text))
         ORDER BY received_at DESC, submission_id DESC LIMIT $4`,
        [formId, page.after?.receivedAt ?? null, page.after?.submissionId ?? null, page.limit],
      );
      return rows.map(toSubmission);
    },
    async submission(submissionId: string) {
      const { rows } = await db.query<SubmissionRow>(
        `SELECT * FROM rm_builder_submissions WHERE submission_id = $1`,
        [submissionId],
      );
      return rows[0] ? toSubmission(rows[0]) : null;
    },
    async sitesDraftingForm(ownerAgentId: string, formId: string) {
      // The owner's sites by their own index, each draft's head revision looked up by the references' key.
      const { rows } = await db.query<{ site_id: string }>(
        `SELECT s.site_id FROM rm_builder_sites s
         JOIN rm_builder_form_refs r ON r.site_id = s.site_id AND r.draft_revision = s.draft_revision AND r.form_id = $2
         WHERE s.owner_agent_id = $1
         ORDER BY s.is_default DESC, s.created_at, s.site_id`,
        [ownerAgentId, formId],
      );
      return rows.map((r) => r.site_id);
    },
    async sitesPublishingForm(formId: string) {
      const { rows } = await db.query<{ site_id: string }>(
        `SELECT DISTINCT s.site_id FROM rm_builder_form_refs r
         JOIN rm_builder_versions v ON v.site_id = r.site_id AND v.draft_revision = r.draft_revision
         JOIN rm_builder_sites s ON s.site_id = v.site_id AND s.published_version_id = v.version_id
         WHERE r.form_id = $1 ORDER BY s.site_id`,
        [formId],
      );
      return rows.map((r) => r.site_id);
    },
    async siteFormStatus(siteId: string, formId: string) {
      const { rows } = await db.query<{ suspended_reason: string | null; holds: boolean }>(
        `SELECT s.suspended_reason, EXISTS (
           SELECT 1 FROM rm_builder_versions v
           JOIN rm_builder_form_refs r ON r.site_id = v.site_id AND r.draft_revision = v.draft_revision
           JOIN rm_builder_forms f ON f.form_id = r.form_id AND f.owner_agent_id = s.owner_agent_id
           WHERE v.site_id = s.site_id AND v.version_id = s.published_version_id AND r.form_id = $2
         ) AS holds
         FROM rm_builder_sites s WHERE s.site_id = $1 AND s.published_version_id IS NOT NULL`,
        [siteId, formId],
      );
      const r = rows[0];
      if (!r) return { state: 'absent' as const };
      if (r.suspended_reason !== null) return { state: 'suspended' as const, reason: r.suspended_reason };
      return r.holds ? { state: 'accepting' as const } : { state: 'absent' as const };
    },
  };
}
