-- The builder's media library (docs/builder.md#media): one row per live item of an owner, folded inline
-- from media-<id> streams. The bytes are a blob named by sha256 under the data folder; a deleted item's
-- row goes (its bytes stay: blobs are never removed while a version may serve them).
CREATE TABLE rm_builder_media (
  media_id       text PRIMARY KEY,
  owner_agent_id text NOT NULL,
  sha256         text NOT NULL,
  content_type   text NOT NULL,
  width          integer NOT NULL,
  height         integer NOT NULL,
  length         integer NOT NULL,
  filename       text NOT NULL,
  alt            text,
  uploaded_at    timestamptz NOT NULL
);
-- The owner's library, newest first, paged by (uploaded_at, media_id).
CREATE INDEX rm_builder_media_owner ON rm_builder_media (owner_agent_id, uploaded_at DESC, media_id DESC);
