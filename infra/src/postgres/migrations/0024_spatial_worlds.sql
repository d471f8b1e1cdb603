-- Hosted worlds (docs/spatial.md), folded inline from world-<id> streams: this instance's own worlds
-- (origin NULL) and the public worlds of peers whose events arrived through the feed (origin = the peer's
-- instance id). `state` is the world's folded state (domain/src/spatial/world.ts) with its latest graph.
CREATE TABLE rm_spatial_worlds (
  world_id       text PRIMARY KEY,
  spatial_id     text NOT NULL UNIQUE,
  owner_agent_id text NOT NULL,
  origin         text,
  visibility     text NOT NULL,
  state          jsonb NOT NULL,
  graph_revision integer NOT NULL,
  created_at     timestamptz NOT NULL,
  updated_at     timestamptz NOT NULL
);
CREATE INDEX rm_spatial_worlds_owner ON rm_spatial_worlds (owner_agent_id, created_at, world_id);

-- Every revision of every graph, kept: the latest is also in rm_spatial_worlds.state.
CREATE TABLE rm_spatial_graph_revisions (
  world_id   text NOT NULL,
  revision   integer NOT NULL,
  spatial_id text NOT NULL,
  nodes      jsonb NOT NULL,
  saved_at   timestamptz NOT NULL,
  PRIMARY KEY (world_id, revision)
);

-- Views and portals by id (GET /wow/view/<id>, /wow/portal/<id>), pointing at their world.
CREATE TABLE rm_spatial_parts (
  part_id  text PRIMARY KEY,
  kind     text NOT NULL,
  world_id text NOT NULL
);
CREATE INDEX rm_spatial_parts_world ON rm_spatial_parts (world_id);

-- Tags, ours (origin '') and peers' (origin = the peer's instance id).
CREATE TABLE rm_spatial_tags (
  scheme         text NOT NULL,
  tag_id         text NOT NULL,
  origin         text NOT NULL,
  owner_agent_id text NOT NULL,
  target         jsonb NOT NULL,
  label          text,
  registered_at  timestamptz NOT NULL,
  PRIMARY KEY (scheme, tag_id, origin)
);

-- The operator's choice of primary world (one row at most).
CREATE TABLE rm_spatial_primary (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  world_id  text
);
