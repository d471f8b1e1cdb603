-- Single sign-on (docs/sso.md#home, docs/sso.md#one-agent). Read models folded from sso.home_recorded
-- and sso.account_linked.

-- On the global instance: each person's home instance, the sovereign whose delegated sign-up made their
-- account here (the session hand-off goes there when it names no instance).
CREATE TABLE rm_sso_homes (
  agent_id     text PRIMARY KEY,
  account_id   text NOT NULL,
  peer_id      text NOT NULL,
  recorded_at  timestamptz NOT NULL
);

-- On a delegating instance: each local account's link to the person's agent at the global instance.
-- One link per account and one account per remote agent.
CREATE TABLE rm_sso_account_links (
  account_id      text PRIMARY KEY,
  agent_id        text NOT NULL,
  origin          text NOT NULL,
  remote_agent_id text NOT NULL,
  via             text NOT NULL,
  linked_at       timestamptz NOT NULL,
  UNIQUE (origin, remote_agent_id)
);
