-- Read models folded from the log by the inline projections (same transaction as the append).
CREATE TABLE rm_instance (
  singleton        boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  instance_id      text NOT NULL,
  role             text NOT NULL,
  name             text NOT NULL,
  base_url         text NOT NULL,
  primary_agent_id text NOT NULL
);

CREATE TABLE rm_instance_keys (
  key_id      text PRIMARY KEY,
  origin      text NOT NULL,
  public_key  text NOT NULL,
  valid_from  timestamptz NOT NULL,
  valid_until timestamptz
);

CREATE TABLE rm_instance_controllers (
  account_id text PRIMARY KEY,
  agent_id   text NOT NULL,
  granted_at timestamptz NOT NULL
);

CREATE TABLE rm_agents (
  agent_id       text PRIMARY KEY,
  kind           text NOT NULL,
  name           text NOT NULL,
  handle         text UNIQUE,
  owner_agent_id text,
  bio            text,
  avatar_url     text,
  placeholder    boolean NOT NULL DEFAULT false,
  origin         text,
  created_at     timestamptz NOT NULL,
  updated_at     timestamptz NOT NULL
);
CREATE INDEX rm_agents_owner ON rm_agents (owner_agent_id);

CREATE TABLE rm_accounts (
  account_id text PRIMARY KEY,
  agent_id   text NOT NULL,
  email      text UNIQUE,
  handle     text UNIQUE,
  created_at timestamptz NOT NULL
);

CREATE TABLE rm_sessions (
  session_id text PRIMARY KEY,
  account_id text NOT NULL,
  token_hash text NOT NULL UNIQUE,
  expires_at timestamptz NOT NULL,
  started_at timestamptz NOT NULL,
  ended_at   timestamptz
);
CREATE INDEX rm_sessions_account ON rm_sessions (account_id);

-- Async projections keep a durable checkpoint (the last feed sequence they folded).
CREATE TABLE projection_checkpoints (
  name       text PRIMARY KEY,
  seq        bigint NOT NULL DEFAULT 0,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- An async projection: event counts per type, for status pages and the operator CLI.
CREATE TABLE rm_event_counts (
  type      text PRIMARY KEY,
  count     bigint NOT NULL,
  last_seq  bigint NOT NULL
);

-- Operational state, not domain facts: failed sign-in counters for throttling.
CREATE TABLE auth_throttle (
  key           text PRIMARY KEY,
  failures      integer NOT NULL,
  window_start  timestamptz NOT NULL,
  blocked_until timestamptz
);
