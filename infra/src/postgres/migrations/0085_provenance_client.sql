-- The client that made each tool call, as it names itself (its User-Agent): a token's list shows where it
-- was last used from. Old entries have none.
ALTER TABLE rm_provenance ADD COLUMN IF NOT EXISTS client text;
