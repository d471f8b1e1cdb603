-- The connected external-assistant account's secrets (docs/assistant.md#secrets): not read models and
-- not in the log. Every secret column holds AES-256-GCM ciphertext (`v1.<nonce>.<ciphertext+tag>`) under
-- a key that is not in the database (ASSISTANT_SECRET_KEY or a key file in the data folder); a row is
-- deleted when its sign-in ends and when the account is disconnected.

-- Device sign-ins in progress: the device code redeems the grant, so it is a secret too.
CREATE TABLE assistant_account_sign_ins (
  sign_in_id         text PRIMARY KEY,
  agent_id           text NOT NULL,
  device_code_sealed text NOT NULL,
  interval_seconds   integer NOT NULL,
  next_poll_at       timestamptz NOT NULL,
  expires_at         timestamptz NOT NULL
);
CREATE INDEX assistant_account_sign_ins_agent ON assistant_account_sign_ins (agent_id);

-- The connected account's tokens, one row per agent.
CREATE TABLE assistant_account_tokens (
  agent_id             text PRIMARY KEY,
  access_token_sealed  text NOT NULL,
  refresh_token_sealed text,
  access_expires_at    timestamptz,
  updated_at           timestamptz NOT NULL
);
