-- What was live when (docs/builder.md#history): every publish, rollback and restore of a site, in the
-- order of its stream (seq: the site stream's version of the event), folded inline by builder-history
-- (projections/src/builder/history-projection.ts). `replaced_version_id` is the version live until then:
-- a rollback's own fromVersionId, for a publish the version of the row before it that changed what is
-- live; a restore changes the draft only and replaces nothing.
CREATE TABLE IF NOT EXISTS rm_builder_history (
  site_id             text NOT NULL,
  seq                 integer NOT NULL,
  action              text NOT NULL CHECK (action IN ('published', 'rolled_back', 'restored')),
  version_id          text NOT NULL,
  replaced_version_id text,
  actor_id            text NOT NULL,
  at                  timestamptz NOT NULL,
  PRIMARY KEY (site_id, seq)
);

-- The history of the sites already there, from the log, by the projection's rules: this instance's own
-- site streams only (imported ones are named `<origin>/site-…`). Restores made before this migration
-- were plain draft saves and cannot be told apart; they are not in it.
INSERT INTO rm_builder_history (site_id, seq, action, version_id, replaced_version_id, actor_id, at)
SELECT substr(c.stream, length('site-') + 1),
       c.stream_version,
       CASE c.type WHEN 'site.published' THEN 'published' WHEN 'site.rolled_back' THEN 'rolled_back' ELSE 'restored' END,
       c.data ->> 'versionId',
       CASE c.type WHEN 'site.rolled_back' THEN c.data ->> 'fromVersionId'
                   WHEN 'site.published' THEN c.live_before END,
       c.actor_id,
       c.occurred_at
  FROM (
    SELECT e.stream, e.stream_version, e.type, e.actor_id, e.occurred_at, e.envelope::jsonb -> 'data' AS data,
           -- The version live before a publish or rollback: the one the previous of them put online.
           CASE WHEN e.type <> 'site.version_restored' THEN
             lag(e.envelope::jsonb -> 'data' ->> 'versionId') OVER (
               PARTITION BY e.stream, e.type = 'site.version_restored' ORDER BY e.stream_version)
           END AS live_before
      FROM events e
     WHERE e.type IN ('site.published', 'site.rolled_back', 'site.version_restored')
       AND starts_with(e.stream, 'site-')
  ) c
ON CONFLICT (site_id, seq) DO NOTHING;
