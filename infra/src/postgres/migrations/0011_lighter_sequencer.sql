-- A lighter sequencer (docs/log.md, "The feed sequence").
--
-- The foreign key event_sequence.position → events.position made every sequenced row run a referential
-- check that takes a FOR KEY SHARE lock on its events row: an index probe plus a write (and WAL) on an
-- append-only row, about half of the sequencer's cost per row. It guarded nothing the schema does not
-- already: the sequencer is the only writer of event_sequence and numbers positions it has just read
-- from events; events can never be deleted (events_append_only, events_no_truncate); and
-- event_sequence's UNIQUE (position) still refuses sequencing a row twice.
ALTER TABLE event_sequence DROP CONSTRAINT IF EXISTS event_sequence_position_fkey;

-- Same numbering as before; the last row's (tx_id, position) comes from the rows just numbered rather
-- than from a second lookup through event_sequence.
CREATE OR REPLACE FUNCTION tributary_sequence_events() RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  horizon xid8;
  st sequencer_state%ROWTYPE;
  last_row record;
BEGIN
  IF NOT pg_try_advisory_xact_lock(732113, 1) THEN
    RETURN -1;
  END IF;
  horizon := pg_snapshot_xmin(pg_current_snapshot());
  SELECT * INTO st FROM sequencer_state;
  WITH fresh AS (
    SELECT e.position, e.tx_id, e.feed, row_number() OVER (ORDER BY e.tx_id, e.position) AS rn
    FROM events e
    WHERE (e.tx_id, e.position) > (st.last_tx, st.last_position) AND e.tx_id < horizon
  ), ins AS (
    INSERT INTO event_sequence (seq, position, feed)
    SELECT st.last_seq + rn, position, feed FROM fresh ORDER BY rn
  )
  SELECT f.rn, f.tx_id, f.position INTO last_row FROM fresh f ORDER BY f.rn DESC LIMIT 1;
  IF last_row.rn IS NULL THEN
    RETURN 0;
  END IF;
  UPDATE sequencer_state
  SET last_tx = last_row.tx_id, last_position = last_row.position, last_seq = st.last_seq + last_row.rn;
  RETURN last_row.rn;
END $$;
