-- Agent access: scoped MCP token records and the provenance log, both folded inline from
-- the log (`mcp_token.*`, `provenance.recorded`), so a rebuild from the log gives the same rows.

-- A token record: what every call is checked against. The token (a JWT) itself is never stored.
CREATE TABLE rm_mcp_tokens (
  jti         text PRIMARY KEY,
  account_id  text NOT NULL,
  agent_id    text NOT NULL,
  persona_id  text,
  scopes      text[] NOT NULL,
  audience    text NOT NULL,
  label       text NOT NULL,
  client      text,
  created_at  timestamptz NOT NULL,
  expires_at  timestamptz NOT NULL,
  revoked_at  timestamptz
);
CREATE INDEX rm_mcp_tokens_account ON rm_mcp_tokens (account_id, created_at DESC);

-- One row per tool invocation. entry_id is the event id (UUIDv7), so ordering by it is time order.
CREATE TABLE rm_provenance (
  entry_id              text PRIMARY KEY,
  occurred_at           timestamptz NOT NULL,
  tool                  text NOT NULL,
  surface               text NOT NULL,
  auth_mode             text NOT NULL,
  token_jti             text,
  controller_account_id text,
  controller_agent_id   text,
  actor_id              text,
  args                  jsonb NOT NULL,
  outcome               text NOT NULL,
  error_code            text,
  duration_ms           double precision NOT NULL,
  request_id            text
);
-- "Recent calls of this person", "of this persona", "made with the static token", "last use of this token".
CREATE INDEX rm_provenance_controller ON rm_provenance (controller_account_id, entry_id DESC);
CREATE INDEX rm_provenance_actor ON rm_provenance (actor_id, entry_id DESC);
CREATE INDEX rm_provenance_auth_mode ON rm_provenance (auth_mode, entry_id DESC);
CREATE INDEX rm_provenance_token ON rm_provenance (token_jti, entry_id DESC) WHERE token_jti IS NOT NULL;
