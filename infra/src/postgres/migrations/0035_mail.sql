-- Transactional mail (docs/mail.md). The requests' status, folded inline from the mail.* events.
CREATE TABLE rm_mail_requests (
  stream      text PRIMARY KEY,
  -- 'peer:<peer id>' or 'instance'
  requester   text NOT NULL,
  template    text NOT NULL,
  status      text NOT NULL CHECK (status IN ('pending', 'sending', 'retrying', 'sent', 'failed', 'unknown')),
  retry_at    timestamptz,
  created_at  timestamptz NOT NULL,
  updated_at  timestamptz NOT NULL
);
CREATE INDEX rm_mail_requests_due ON rm_mail_requests (retry_at) WHERE status = 'retrying';

-- The mail consumer's cursor on the sequenced log. Operational state, like a projection checkpoint:
-- not a domain fact, so not an event. It moves only once every request before it has its attempt's
-- claim or outcome on the log, so a crash repeats a batch (whose steps the request streams make
-- idempotent) and never skips one.
CREATE TABLE mail_consumer_cursor (
  name        text PRIMARY KEY,
  seq         bigint NOT NULL DEFAULT 0 CHECK (seq >= 0),
  updated_at  timestamptz NOT NULL DEFAULT now()
);

-- Messages counted per key (a peer, or a digest of a recipient address) in fixed one-hour windows:
-- a throttle, not a fact, so not in the log.
CREATE TABLE mail_rate_counts (
  key           text PRIMARY KEY,
  window_start  timestamptz NOT NULL,
  count         integer NOT NULL
);

-- Accounts: when their email address was verified, and whether peer apps may find them in a search.
ALTER TABLE rm_accounts ADD COLUMN email_verified_at timestamptz;
ALTER TABLE rm_accounts ADD COLUMN discoverable boolean NOT NULL DEFAULT true;
