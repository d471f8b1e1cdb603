-- Custom-domain bindings (docs/builder.md#domains): one row per bound domain, folded inline from
-- the domain-<name> streams of this instance (the events are private and never imported). A row goes
-- when its domain is unbound; only `verified` rows are served and answered 200 to Caddy's `ask`.
CREATE TABLE rm_builder_domains (
  domain         text PRIMARY KEY,
  site_id        text NOT NULL,
  owner_agent_id text NOT NULL,
  provider       text NOT NULL,
  state          text NOT NULL CHECK (state IN ('pending', 'verified', 'failed')),
  reason         text,
  detail         text,
  token          text NOT NULL,
  bound_at       timestamptz NOT NULL,
  checked_at     timestamptz,
  verified_at    timestamptz
);
-- An owner's bindings, and a site's (the site server loads a site with its domains).
CREATE INDEX rm_builder_domains_owner ON rm_builder_domains (owner_agent_id, domain);
CREATE INDEX rm_builder_domains_site ON rm_builder_domains (site_id, domain);
