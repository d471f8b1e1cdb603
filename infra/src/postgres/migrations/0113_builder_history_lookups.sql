-- The history's own lookups, each one indexed read however long a site's history grows (docs/builder.md#undo):
-- the restore that saved a draft revision (an undo asks whether it takes one back), a version's latest
-- restore (the undo notice), and the site's rollbacks newest first (read_site's draftHoldsRolledBack
-- looks for the last one that went back).
CREATE INDEX IF NOT EXISTS rm_builder_history_restore_revision
  ON rm_builder_history (site_id, draft_revision) WHERE action = 'restored';
CREATE INDEX IF NOT EXISTS rm_builder_history_restores
  ON rm_builder_history (site_id, version_id, seq DESC) WHERE action = 'restored';
CREATE INDEX IF NOT EXISTS rm_builder_history_rollbacks
  ON rm_builder_history (site_id, seq DESC) WHERE action = 'rolled_back';
