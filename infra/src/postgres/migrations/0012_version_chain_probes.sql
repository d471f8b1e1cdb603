-- The version-chain check probes the log's (stream, stream_version) index once per new row, always.
--
-- Written as NOT EXISTS, the check became an anti-join whose plan PL/pgSQL prepares once per connection
-- and keeps until the table's statistics change. Planned while the log was small, that plan read the
-- whole log sequentially, and it stayed so as the log grew: every append then read every event ever
-- written (measured on PostgreSQL 17 with ~12,000 events: the 100-event
-- batch append's SQL went from ~4 ms to ~8 ms within a minute, and `events` gained one full sequential
-- scan per append). Now the check is a scalar subquery, which is never turned into a join: it runs per
-- new row. And the function plans with sequential scans off, so that the plan cached on a connection's
-- first append, while the log is still tiny (where a sequential scan is the cheaper probe), is the
-- index probe of events_stream_version_unique that stays right at every size.
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
