-- The assistant's vault document, settings-side credentials and provenance by plan
-- (docs/assistant.md). Read models are folded inline from the plan and settings streams.

-- The plans as proposed and confirmed: what each finished step's section is made from.
CREATE TABLE rm_assistant_vault_plans (
  plan_id        text PRIMARY KEY,
  owner_agent_id text NOT NULL,
  acting_agent_id text NOT NULL,
  hash           text NOT NULL,
  steps          jsonb NOT NULL,
  -- The event's own ISO text, kept as text so the document shows exactly what the log holds.
  confirmed_at   text,
  confirmed_by   text,
  confirmed_via  text
);

-- Each person's vault switch as the log had it at the point being folded (absent = on).
CREATE TABLE rm_assistant_vault_settings (
  agent_id text PRIMARY KEY,
  vault    boolean NOT NULL
);

-- One Markdown section per finished plan step, in the document of the agent the step acted as.
CREATE TABLE rm_assistant_vault_entries (
  plan_id        text NOT NULL,
  step           integer NOT NULL,
  agent_id       text NOT NULL,
  owner_agent_id text NOT NULL,
  -- The log position of the plan_step_finished event: the document's order.
  position       bigint NOT NULL,
  status         text NOT NULL,
  markdown       text NOT NULL,
  PRIMARY KEY (plan_id, step)
);
CREATE INDEX rm_assistant_vault_entries_agent ON rm_assistant_vault_entries (agent_id, position);

-- Provenance entries name the plan step they ran (provenance.recorded's `plan`).
ALTER TABLE rm_provenance ADD COLUMN plan_id text, ADD COLUMN plan_hash text, ADD COLUMN plan_step integer;
CREATE INDEX rm_provenance_plan ON rm_provenance (plan_id, entry_id DESC) WHERE plan_id IS NOT NULL;
-- "What the assistant did for this person": its surface's calls and every call that ran a plan step.
CREATE INDEX rm_provenance_assistant ON rm_provenance (controller_account_id, entry_id DESC)
  WHERE surface = 'assistant' OR plan_id IS NOT NULL;

-- Remote-viewer credentials (`svc_remote_viewer`): a visitor from another instance, read-only here. Only
-- the SHA-256 of the cookie's secret is kept. Not a read model: minted by the single-sign-on flow.
CREATE TABLE assistant_remote_viewer_credentials (
  credential_id text PRIMARY KEY,
  token_hash    text NOT NULL UNIQUE,
  agent_id      text NOT NULL,
  home          text NOT NULL,
  created_at    timestamptz NOT NULL,
  expires_at    timestamptz NOT NULL,
  revoked_at    timestamptz
);
CREATE INDEX assistant_remote_viewer_credentials_agent ON assistant_remote_viewer_credentials (agent_id);
