-- Who first published each version and the note they gave (site.publish_noted), so the versions list
-- shows publishes as a person reads them: when, by whom, why (docs/builder.md#versions). The publisher
-- of the versions already there is filled from the log; notes did not exist before.
ALTER TABLE rm_builder_versions ADD COLUMN IF NOT EXISTS published_by text;
ALTER TABLE rm_builder_versions ADD COLUMN IF NOT EXISTS publish_note text;
UPDATE rm_builder_versions v SET published_by = p.actor_id
  FROM (
    SELECT DISTINCT ON (1, 2)
           e.envelope::jsonb -> 'data' ->> 'siteId' AS site_id,
           e.envelope::jsonb -> 'data' ->> 'versionId' AS version_id,
           e.actor_id
      FROM events e
     WHERE e.type IN ('site.published', 'site.rolled_back')
     ORDER BY 1, 2, e.occurred_at
  ) p
 WHERE v.site_id = p.site_id AND v.version_id = p.version_id AND v.published_by IS NULL;
-- The versions list reads published ones only, newest first.
CREATE INDEX IF NOT EXISTS rm_builder_versions_published ON rm_builder_versions (site_id, seq DESC)
  WHERE published_at IS NOT NULL;
