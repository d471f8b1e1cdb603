// Inline projection of forms (form-<id>), their submissions (submission-<id>) and which forms each draft
// revision holds (site.draft_saved), into rm_builder_forms, rm_builder_submissions and
// rm_builder_form_refs, in the append's own transaction. Statements only (no reads), so an append stays
// one round trip; every statement depends on the events alone, so a rebuild equals the incremental
// result. Events imported from a peer are skipped (none of these federate; a peer's draft is not ours).
import { draftReferences, type BuilderEventData as EventData, type DraftDocument } from '@tributary/domain';
import {
  runStatements,
  type ProjectedEvent,
  type Projection,
  type SqlStatement,
} from '../shared/projection.js';

function formStatements(e: ProjectedEvent): SqlStatement[] {
  if (e.imported) return [];
  switch (e.type) {
    case 'form.created': {
      const d = e.data as EventData<'form.created'>;
      return [
        {
          text: `INSERT INTO rm_builder_forms (form_id, owner_agent_id, name, fields, success_message, created_at, updated_at)
                 VALUES ($1, $2, $3, $4, $5, $6, $6)`,
          values: [
            d.formId,
            d.ownerAgentId,
            d.name,
            JSON.stringify(d.fields),
            d.successMessage,
            e.occurredAt,
          ],
        },
      ];
    }
    case 'form.updated': {
      const d = e.data as EventData<'form.updated'>;
      return [
        {
          text: `UPDATE rm_builder_forms SET name = COALESCE($2, name), fields = COALESCE($3::jsonb, fields),
                   success_message = COALESCE($4, success_message), updated_at = $5
                 WHERE form_id = $1`,
          values: [
            d.formId,
            d.name ?? null,
            d.fields === undefined ? null : JSON.stringify(d.fields),
            d.successMessage ?? null,
            e.occurredAt,
          ],
        },
      ];
    }
    case 'form.deleted': {
      const d = e.data as EventData<'form.deleted'>;
      return [
        { text: `DELETE FROM rm_builder_submissions WHERE form_id = $1`, values: [d.formId] },
        { text: `DELETE FROM rm_builder_forms WHERE form_id = $1`, values: [d.formId] },
      ];
    }
    case 'form.submission_received': {
      const d = e.data as EventData<'form.submission_received'>;
      // A submission that raced its form's deletion is not kept: the form is gone, and so are its own.
      return [
        {
          text: `INSERT INTO rm_builder_submissions (submission_id, form_id, site_id, "values", received_at)
                 SELECT $1, $2, $3, $4, $5 WHERE EXISTS (SELECT 1 FROM rm_builder_forms WHERE form_id = $2)`,
          values: [d.submissionId, d.formId, d.siteId, JSON.stringify(d.values), d.receivedAt],
        },
      ];
    }
    case 'form.submission_deleted': {
      const d = e.data as EventData<'form.submission_deleted'>;
      return [
        { text: `DELETE FROM rm_builder_submissions WHERE submission_id = $1`, values: [d.submissionId] },
      ];
    }
    case 'form.submissions_seen': {
      const d = e.data as EventData<'form.submissions_seen'>;
      return [
        {
          text: `UPDATE rm_builder_forms SET seen_through = GREATEST(seen_through, $2::timestamptz) WHERE form_id = $1`,
          values: [d.formId, d.through],
        },
      ];
    }
    case 'site.draft_saved': {
      const d = e.data as EventData<'site.draft_saved'>;
      const { formIds } = draftReferences(d.document as DraftDocument);
      if (formIds.length === 0) return [];
      // The draft stream's version is the draft revision; rm_builder_versions names the one it rendered.
      return [
        {
          text: `INSERT INTO rm_builder_form_refs (site_id, draft_revision, form_id)
                 SELECT $1, $2, f FROM jsonb_array_elements_text($3::jsonb) AS f ON CONFLICT DO NOTHING`,
          values: [d.siteId, e.streamVersion, JSON.stringify(formIds)],
        },
      ];
    }
    default:
      return [];
  }
}

export const builderFormsProjection: Projection = {
  name: 'builder-forms',
  mode: 'inline',
  tables: ['rm_builder_forms', 'rm_builder_submissions', 'rm_builder_form_refs'],
  handles: [
    'form.created',
    'form.updated',
    'form.deleted',
    'form.submission_received',
    'form.submission_deleted',
    'form.submissions_seen',
    'site.draft_saved',
  ],
  statements: formStatements,
  apply: (db, e) => runStatements(db, formStatements(e)),
};
