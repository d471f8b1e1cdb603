-- Federation sync: one durable cursor per peer and direction.
-- Operational state, like a projection checkpoint: not a domain fact, so not an event. A cursor only
-- moves after the peer (push) or our own import (pull) has answered, so a crash or an outage between the
-- two repeats a batch, which the receiving side deduplicates, and never skips one.
CREATE TABLE federation_sync_cursors (
  peer_id          text NOT NULL,
  direction        text NOT NULL CHECK (direction IN ('push', 'pull')),
  -- push: the last of our feed sequences the peer has answered for;
  -- pull: the last of the peer's feed sequences we have imported.
  position         bigint NOT NULL DEFAULT 0 CHECK (position >= 0),
  -- Consecutive failures since the last answer; drives the backoff.
  attempts         integer NOT NULL DEFAULT 0,
  next_attempt_at  timestamptz NOT NULL,
  last_attempt_at  timestamptz,
  last_success_at  timestamptz,
  last_error_code  text,
  last_error       text,
  -- The other side's feed head when it last answered (pull), for lag.
  peer_head        bigint,
  -- Events the other side accepted (push) or we accepted (pull), duplicates, and refusals, in total.
  accepted         bigint NOT NULL DEFAULT 0,
  duplicates       bigint NOT NULL DEFAULT 0,
  rejected         bigint NOT NULL DEFAULT 0,
  last_rejection   text,
  -- pull: a catch-up that began after more than the replay window of silence (or at first contact) may
  -- take events older than the window until it has caught up (allowHistorical).
  replaying_history boolean NOT NULL DEFAULT false,
  created_at       timestamptz NOT NULL,
  PRIMARY KEY (peer_id, direction)
);
CREATE INDEX federation_sync_cursors_due ON federation_sync_cursors (next_attempt_at);
