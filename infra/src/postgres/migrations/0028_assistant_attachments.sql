-- Pictures handed to the assistant (docs/assistant.md#attachments): one row per attachment, folded inline
-- from aattach-<id> streams. The bytes are a blob named by blob_key under the data folder; only the owner
-- may reference or load them.
CREATE TABLE rm_assistant_attachments (
  attachment_id  text PRIMARY KEY,
  owner_agent_id text NOT NULL,
  media_type     text NOT NULL,
  width          integer NOT NULL,
  height         integer NOT NULL,
  bytes          integer NOT NULL,
  sha256         text NOT NULL,
  blob_key       text NOT NULL,
  added_at       timestamptz NOT NULL
);
