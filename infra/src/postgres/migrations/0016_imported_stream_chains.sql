-- A peer's streams stay chains here. Imported events are numbered locally in arrival order, and the
-- origin's own stream version lives only in the signed envelope; this table keeps, per imported stream,
-- which event holds each origin version. Its key is the database's guard against two events at one
-- version (equivocation), and max(origin_version) per stream is the head an import must extend.
-- Derived from the log (written in the import's transaction, like the nonces), append-only.
CREATE TABLE imported_stream_versions (
  -- The local stream `<origin>/<origin's stream>`.
  stream          text NOT NULL,
  origin_version  integer NOT NULL CHECK (origin_version > 0),
  event_id        text NOT NULL,
  PRIMARY KEY (stream, origin_version)
);
CREATE TRIGGER imported_stream_versions_append_only BEFORE UPDATE OR DELETE ON imported_stream_versions
  FOR EACH STATEMENT EXECUTE FUNCTION tributary_refuse_change();
CREATE TRIGGER imported_stream_versions_no_truncate BEFORE TRUNCATE ON imported_stream_versions
  FOR EACH STATEMENT EXECUTE FUNCTION tributary_refuse_change();

-- What was imported before this table existed, in arrival order. Where a peer already equivocated, the
-- first event keeps the version and the later one stays out (`tributary log verify` reports it).
INSERT INTO imported_stream_versions (stream, origin_version, event_id)
SELECT e.stream, (e.envelope::jsonb ->> 'streamVersion')::integer, e.id
FROM events e
WHERE starts_with(e.stream, e.origin || '/')
ORDER BY e.position
ON CONFLICT DO NOTHING;

-- Evidence of equivocation: a peer signed two different events at one version of one of its streams.
-- Both envelopes are kept exactly as received (the first is also in the log; the second never is), so
-- anyone can re-verify that the origin signed both. A refused event is recorded once.
CREATE TABLE federation_equivocations (
  id                bigserial PRIMARY KEY,
  origin            text NOT NULL,
  -- The origin's stream name and the version both events claim.
  stream            text NOT NULL,
  stream_version    integer NOT NULL,
  held_event_id     text NOT NULL,
  held_envelope     text NOT NULL,
  refused_event_id  text NOT NULL,
  refused_envelope  text NOT NULL,
  detected_at       timestamptz NOT NULL,
  CONSTRAINT federation_equivocations_refused_unique UNIQUE (origin, refused_event_id)
);
CREATE INDEX federation_equivocations_origin ON federation_equivocations (origin, id);
CREATE TRIGGER federation_equivocations_append_only BEFORE UPDATE OR DELETE ON federation_equivocations
  FOR EACH STATEMENT EXECUTE FUNCTION tributary_refuse_change();
CREATE TRIGGER federation_equivocations_no_truncate BEFORE TRUNCATE ON federation_equivocations
  FOR EACH STATEMENT EXECUTE FUNCTION tributary_refuse_change();
