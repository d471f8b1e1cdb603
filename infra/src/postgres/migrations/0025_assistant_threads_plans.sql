-- The assistant's threads and plans (docs/assistant.md#read-models), folded inline from athread-<id> and
-- aplan-<id> streams. A deleted thread's rows go (its messages and its plans with it); the log keeps
-- every event, as for every deletion.
CREATE TABLE rm_assistant_threads (
  thread_id        text PRIMARY KEY,
  owner_agent_id   text NOT NULL,
  title            text NOT NULL,
  started_at       timestamptz NOT NULL,
  last_activity_at timestamptz NOT NULL,
  message_count    integer NOT NULL DEFAULT 0
);
-- A person's threads, newest activity first, paged by (last_activity_at, thread_id).
CREATE INDEX rm_assistant_threads_owner
  ON rm_assistant_threads (owner_agent_id, last_activity_at DESC, thread_id DESC);

CREATE TABLE rm_assistant_messages (
  message_id        text PRIMARY KEY,
  thread_id         text NOT NULL,
  owner_agent_id    text NOT NULL,
  -- The message's place in its thread: the thread stream's version.
  seq               integer NOT NULL,
  role              text NOT NULL,
  text              text NOT NULL,
  attachment_ids    jsonb NOT NULL,
  plan_id           text,
  declined          jsonb,
  auto_ran          jsonb,
  untrusted_sources jsonb,
  model             text,
  added_at          timestamptz NOT NULL
);
CREATE INDEX rm_assistant_messages_thread ON rm_assistant_messages (thread_id, seq);

CREATE TABLE rm_assistant_plans (
  plan_id               text PRIMARY KEY,
  thread_id             text NOT NULL,
  message_id            text NOT NULL,
  owner_agent_id        text NOT NULL,
  acting_agent_id       text NOT NULL,
  hash                  text NOT NULL,
  expires_at            timestamptz NOT NULL,
  proposed_at           timestamptz NOT NULL,
  confirmed_hash        text,
  confirmed_at          timestamptz,
  confirmed_by_agent_id text,
  confirmed_via         text
);
-- A plan is confirmed by its hash (POST /api/autobot/confirm); a hash names one plan (its id is in it).
CREATE INDEX rm_assistant_plans_hash ON rm_assistant_plans (hash);
CREATE INDEX rm_assistant_plans_message ON rm_assistant_plans (message_id);
CREATE INDEX rm_assistant_plans_thread ON rm_assistant_plans (thread_id);

CREATE TABLE rm_assistant_plan_steps (
  plan_id     text NOT NULL,
  step        integer NOT NULL,
  tool        text NOT NULL,
  title       text NOT NULL,
  args        jsonb NOT NULL,
  writes      boolean NOT NULL,
  untrusted   jsonb NOT NULL,
  -- pending | confirmed | cancelled | ran | failed | skipped
  status      text NOT NULL,
  error_code  text,
  summary     text,
  -- The step's own events (those of the append that recorded it).
  events      jsonb,
  finished_at timestamptz,
  PRIMARY KEY (plan_id, step)
);
