-- An operator's suspensions in the site history (docs/builder.md#history): each `site.suspended` (a
-- suspension, or a new reason for one) and `site.unsuspended` of a site is a row too, folded inline by
-- builder-history (projections/src/builder/history-projection.ts), with the reason the owner is shown.
-- They concern no version: `version_id` is null for them, and only for them.
ALTER TABLE rm_builder_history DROP CONSTRAINT IF EXISTS rm_builder_history_action_check;
ALTER TABLE rm_builder_history ADD CONSTRAINT rm_builder_history_action_check
  CHECK (action IN ('published', 'rolled_back', 'restored', 'suspended', 'unsuspended'));
ALTER TABLE rm_builder_history ALTER COLUMN version_id DROP NOT NULL;
ALTER TABLE rm_builder_history ADD COLUMN IF NOT EXISTS reason text;
ALTER TABLE rm_builder_history DROP CONSTRAINT IF EXISTS rm_builder_history_version_check;
ALTER TABLE rm_builder_history ADD CONSTRAINT rm_builder_history_version_check
  CHECK ((version_id IS NULL) = (action IN ('suspended', 'unsuspended')));

-- The suspensions already there, from the log: this instance's own site streams only.
INSERT INTO rm_builder_history (site_id, seq, action, version_id, replaced_version_id, actor_id, at, reason)
SELECT substr(e.stream, length('site-') + 1),
       e.stream_version,
       CASE e.type WHEN 'site.suspended' THEN 'suspended' ELSE 'unsuspended' END,
       NULL,
       NULL,
       e.actor_id,
       e.occurred_at,
       e.envelope::jsonb -> 'data' ->> 'reason'
  FROM events e
 WHERE e.type IN ('site.suspended', 'site.unsuspended')
   AND starts_with(e.stream, 'site-')
ON CONFLICT (site_id, seq) DO NOTHING;
