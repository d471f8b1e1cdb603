-- The append-only log of signed events (docs/architecture.md#shape, #envelope, #feed).
-- `position` is insertion order and is not exposed; the feed sequence lives in event_sequence.
CREATE TABLE events (
  position        bigserial PRIMARY KEY,
  -- The writing transaction: readers only trust rows below the snapshot horizon (see the sequencer).
  tx_id           xid8 NOT NULL DEFAULT pg_current_xact_id(),
  id              text NOT NULL,
  origin          text NOT NULL,
  stream          text NOT NULL,
  stream_version  integer NOT NULL CHECK (stream_version > 0),
  type            text NOT NULL,
  actor_id        text NOT NULL,
  occurred_at     timestamptz NOT NULL,
  recorded_at     timestamptz NOT NULL DEFAULT now(),
  -- Whether the event type is federable and public: the feed shows only these.
  feed            boolean NOT NULL,
  -- The exact JSON text signed (local) or received (peer): what an auditor re-verifies.
  envelope        text NOT NULL,
  CONSTRAINT events_origin_id_unique UNIQUE (origin, id),
  CONSTRAINT events_stream_version_unique UNIQUE (stream, stream_version)
);
CREATE INDEX events_tx_position ON events (tx_id, position);
-- "My events": everything written on behalf of an agent.
CREATE INDEX events_actor ON events (actor_id, position);

-- A stream's versions are a chain 1, 2, 3…: an append whose expected version is ahead of the stream
-- would leave a hole, which the database refuses. One set-based check per INSERT statement (over its
-- transition table), rather than a function call per row, keeps batch appends cheap.
CREATE FUNCTION tributary_events_version_chain() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  bad record;
BEGIN
  SELECT n.stream, n.stream_version INTO bad FROM new_rows n
  WHERE n.stream_version > 1 AND NOT EXISTS (
    SELECT 1 FROM events e WHERE e.stream = n.stream AND e.stream_version = n.stream_version - 1
  )
  LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'stream % has no version %', bad.stream, bad.stream_version - 1
      USING ERRCODE = '23514', CONSTRAINT = 'events_version_chain';
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER events_version_chain AFTER INSERT ON events REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION tributary_events_version_chain();

-- The log is append-only: the database itself refuses UPDATE, DELETE and TRUNCATE.
CREATE FUNCTION tributary_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the table % is append-only: % refused', TG_TABLE_NAME, TG_OP USING ERRCODE = '42501';
END $$;
-- Statement-level, so even a statement that matches no row is refused.
CREATE TRIGGER events_append_only BEFORE UPDATE OR DELETE ON events
  FOR EACH STATEMENT EXECUTE FUNCTION tributary_refuse_change();
CREATE TRIGGER events_no_truncate BEFORE TRUNCATE ON events
  FOR EACH STATEMENT EXECUTE FUNCTION tributary_refuse_change();

-- The feed sequence: dense, gap-free as a reader sees it, assigned in (tx_id, position) order to rows
-- whose transaction is below the snapshot horizon, so a later commit can never land before a row a
-- reader has already passed. Writers never wait for each other; only the sequencer is serialized.
CREATE TABLE event_sequence (
  seq       bigint PRIMARY KEY,
  position  bigint NOT NULL UNIQUE REFERENCES events (position),
  feed      boolean NOT NULL
);
CREATE INDEX event_sequence_feed ON event_sequence (seq) WHERE feed;
CREATE TRIGGER event_sequence_append_only BEFORE UPDATE OR DELETE ON event_sequence
  FOR EACH STATEMENT EXECUTE FUNCTION tributary_refuse_change();
CREATE TRIGGER event_sequence_no_truncate BEFORE TRUNCATE ON event_sequence
  FOR EACH STATEMENT EXECUTE FUNCTION tributary_refuse_change();

CREATE TABLE sequencer_state (
  singleton      boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  last_tx        xid8 NOT NULL,
  last_position  bigint NOT NULL,
  last_seq       bigint NOT NULL
);
INSERT INTO sequencer_state VALUES (true, '0'::xid8, 0, 0);

-- Sequences every committed row below the horizon; returns how many it sequenced, or -1 when another
-- session holds the sequencer (that session will sequence what is ready).
CREATE FUNCTION tributary_sequence_events() RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  horizon xid8;
  st sequencer_state%ROWTYPE;
  added bigint;
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
    RETURNING seq
  )
  SELECT count(*) INTO added FROM ins;
  IF added > 0 THEN
    SELECT e.tx_id, e.position INTO last_row
    FROM event_sequence s JOIN events e ON e.position = s.position
    WHERE s.seq = st.last_seq + added;
    UPDATE sequencer_state SET last_tx = last_row.tx_id, last_position = last_row.position, last_seq = st.last_seq + added;
  END IF;
  RETURN added;
END $$;
