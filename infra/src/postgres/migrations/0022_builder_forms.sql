-- Forms and their submissions (docs/builder.md#forms-and-submissions), folded inline from this instance's
-- own form-<id> and submission-<id> streams; and which forms each draft revision holds, from
-- site.draft_saved, so a published version's forms are known without its draft (rm_builder_versions
-- names the revision it rendered).
CREATE TABLE rm_builder_forms (
  form_id         text PRIMARY KEY,
  owner_agent_id  text NOT NULL,
  name            text NOT NULL,
  fields          jsonb NOT NULL,
  success_message text NOT NULL,
  created_at      timestamptz NOT NULL,
  updated_at      timestamptz NOT NULL
);
CREATE INDEX rm_builder_forms_owner ON rm_builder_forms (owner_agent_id, created_at, form_id);

-- A submission is kept while its form lives: one for a form already deleted is never inserted.
CREATE TABLE rm_builder_submissions (
  submission_id text PRIMARY KEY,
  form_id       text NOT NULL,
  site_id       text NOT NULL,
  "values"      jsonb NOT NULL,
  received_at   timestamptz NOT NULL
);
-- A form's submissions newest first, paged by (received_at, submission_id).
CREATE INDEX rm_builder_submissions_form ON rm_builder_submissions (form_id, received_at DESC, submission_id DESC);

CREATE TABLE rm_builder_form_refs (
  site_id        text NOT NULL,
  draft_revision integer NOT NULL,
  form_id        text NOT NULL,
  PRIMARY KEY (site_id, draft_revision, form_id)
);
CREATE INDEX rm_builder_form_refs_form ON rm_builder_form_refs (form_id);
