-- OAuth: registered clients and refresh-token families, folded inline from the log
-- (`oauth_client.*`, `oauth_refresh.*`, `oauth_family.*`). Authorization codes need no table: a code's
-- digest names its stream. Only digests of refresh tokens are kept.
CREATE TABLE rm_oauth_clients (
  client_id     text PRIMARY KEY,
  client_name   text NOT NULL,
  redirect_uris text[] NOT NULL,
  grant_types   text[] NOT NULL,
  scope         text,
  client_uri    text,
  registered_at timestamptz NOT NULL
);

-- Every refresh token ever issued, current or rotated away, so a reused one finds its family.
CREATE TABLE rm_oauth_refresh_tokens (
  refresh_digest text PRIMARY KEY,
  family_id      text NOT NULL
);

CREATE TABLE rm_oauth_families (
  family_id   text PRIMARY KEY,
  client_id   text NOT NULL,
  account_id  text NOT NULL,
  scopes      text[] NOT NULL,
  created_at  timestamptz NOT NULL,
  revoked_at  timestamptz
);
CREATE INDEX rm_oauth_families_account ON rm_oauth_families (account_id, created_at DESC);
