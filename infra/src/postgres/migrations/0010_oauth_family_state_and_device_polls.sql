-- OAuth: refresh-token family state and device-flow polls.
--
-- A refresh checks and rotates against its family's read model instead of folding the family's stream,
-- which grows by one event per rotation: the current refresh token's facts and the family stream's
-- version, so the append can still check that nothing changed since (optimistic concurrency). Rows
-- folded before this migration have NULLs here; a refresh then folds the stream as before.
ALTER TABLE rm_oauth_families ADD COLUMN current_refresh jsonb, ADD COLUMN stream_version integer;

-- Device-flow poll pacing (RFC 8628 slow_down), shared by every process of an instance and kept across
-- restarts. A throttle, not a fact: it is not in the log. Keyed by the device code's digest.
CREATE TABLE oauth_device_polls (
  device_digest    text PRIMARY KEY,
  last_poll_at     timestamptz NOT NULL,
  interval_seconds integer NOT NULL,
  -- Whether the latest poll came sooner than the interval allowed (and so grew it by 5 s).
  too_fast         boolean NOT NULL DEFAULT false
);
CREATE INDEX oauth_device_polls_last_poll ON oauth_device_polls (last_poll_at);
