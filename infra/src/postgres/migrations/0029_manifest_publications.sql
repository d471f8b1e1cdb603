-- Universal manifests per entity (docs/manifests.md): which agents' owners publish their manifest,
-- folded from manifest.publication_set. An agent with no row has never chosen: not published.
CREATE TABLE rm_manifest_publications (
  agent_id    text PRIMARY KEY,
  published   boolean NOT NULL,
  updated_at  timestamptz NOT NULL
);
