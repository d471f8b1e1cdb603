-- A restore's draft revision in the history (docs/builder.md#undo): the revision a restore saved, so
-- that an undo can tell it would take the restore back. Folded by builder-history from
-- site.version_restored's own draftRevision; null for a publish or a rollback.
ALTER TABLE rm_builder_history ADD COLUMN IF NOT EXISTS draft_revision integer;

-- The restores already there, from the log.
UPDATE rm_builder_history h
   SET draft_revision = (e.envelope::jsonb -> 'data' ->> 'draftRevision')::integer
  FROM events e
 WHERE h.action = 'restored'
   AND h.draft_revision IS NULL
   AND e.type = 'site.version_restored'
   AND e.stream = 'site-' || h.site_id
   AND e.stream_version = h.seq;
