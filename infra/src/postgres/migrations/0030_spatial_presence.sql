-- Presence at the door of hosted worlds (docs/spatial.md#presence), folded from presence.admitted: one
-- row per presence (a renewal updates its row). Expired rows stay: reads compare expires_at with now.
CREATE TABLE rm_spatial_presence (
  receipt_id          text PRIMARY KEY,
  world_id            text NOT NULL,
  subject             text NOT NULL,
  issuer_instance_id  text NOT NULL,
  issuer_base_url     text NOT NULL,
  content             jsonb NOT NULL,
  admitted_at         timestamptz NOT NULL,
  renewed_at          timestamptz NOT NULL,
  expires_at          timestamptz NOT NULL
);
CREATE INDEX rm_spatial_presence_subject ON rm_spatial_presence (subject, expires_at DESC);
CREATE INDEX rm_spatial_presence_world ON rm_spatial_presence (world_id, expires_at);
