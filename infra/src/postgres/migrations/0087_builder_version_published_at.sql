-- When each version of a site was first served by a publication or a rollback (null: only ever a
-- preview, or a render no publication kept). Previews also create versions, so this is what tells a
-- version that was live from one that never was (docs/builder.md#versions). Filled from the log for the
-- versions already there; the builder projection keeps it from now on.
ALTER TABLE rm_builder_versions ADD COLUMN IF NOT EXISTS published_at timestamptz;
UPDATE rm_builder_versions v SET published_at = p.at
  FROM (
    SELECT e.envelope::jsonb -> 'data' ->> 'siteId' AS site_id,
           e.envelope::jsonb -> 'data' ->> 'versionId' AS version_id,
           min(e.occurred_at) AS at
      FROM events e
     WHERE e.type IN ('site.published', 'site.rolled_back')
     GROUP BY 1, 2
  ) p
 WHERE v.site_id = p.site_id AND v.version_id = p.version_id AND v.published_at IS NULL;
