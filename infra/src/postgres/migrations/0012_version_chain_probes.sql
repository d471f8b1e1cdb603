-- The version-chain check probes the log's (stream, stream_version) index once per new row, at every
-- size of the log (docs/log.md#queries-that-never-read-a-whole-table).
--
-- A scalar subquery, because an anti-join (NOT EXISTS) can be planned as a scan of the whole log, and
-- PL/pgSQL keeps the plan it made on a connection's first append, while the log was still tiny. With
-- sequential scans off, that first plan is the index probe of events_stream_version_unique, which stays
-- right however large the log grows.
CREATE OR REPLACE FUNCTION tributary_events_version_chain() RETURNS trigger LANGUAGE plpgsql
SET enable_seqscan = off AS $$
DECLARE
  bad record;
BEGIN
  SELECT n.stream, n.stream_version INTO bad FROM new_rows n
  WHERE n.stream_version > 1
    AND (SELECT 1 FROM events e WHERE e.stream = n.stream AND e.stream_version = n.stream_version - 1) IS NULL
  LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'stream % has no version %', bad.stream, bad.stream_version - 1
      USING ERRCODE = '23514', CONSTRAINT = 'events_version_chain';
  END IF;
  RETURN NULL;
END $$;
