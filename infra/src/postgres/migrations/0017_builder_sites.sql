-- The site builder's core read models (docs/builder.md): an owner's sites with their settings, draft
-- revision, publication pointer and suspension; each site's draft; and every version rendered for it.
-- Folded inline from this instance's own site-<id> and draft-<id> streams only: events imported from a
-- peer (a federated site.published) are never folded here, so they never show up as local sites.
CREATE TABLE rm_builder_sites (
  site_id              text PRIMARY KEY,
  owner_agent_id       text NOT NULL,
  title                text NOT NULL,
  is_default           boolean NOT NULL,
  theme                text NOT NULL,
  description          text NOT NULL,
  language             text NOT NULL,
  draft_revision       integer NOT NULL DEFAULT 0,
  published_version_id text,
  published_at         timestamptz,
  suspended_reason     text,
  created_at           timestamptz NOT NULL,
  updated_at           timestamptz NOT NULL
);
-- Listing an owner's sites: the default first, then oldest first.
CREATE INDEX rm_builder_sites_owner ON rm_builder_sites (owner_agent_id, is_default DESC, created_at, site_id);

CREATE TABLE rm_builder_drafts (
  site_id    text PRIMARY KEY,
  revision   integer NOT NULL,
  document   jsonb NOT NULL,
  updated_at timestamptz NOT NULL
);

-- seq is the site stream's version at the version's creation: the order versions are listed in.
CREATE TABLE rm_builder_versions (
  site_id        text NOT NULL,
  version_id     text NOT NULL,
  seq            integer NOT NULL,
  manifest_hash  text NOT NULL,
  manifest       jsonb NOT NULL,
  draft_revision integer NOT NULL,
  created_at     timestamptz NOT NULL,
  PRIMARY KEY (site_id, version_id)
);
CREATE UNIQUE INDEX rm_builder_versions_order ON rm_builder_versions (site_id, seq DESC);
