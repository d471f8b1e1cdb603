-- Relaying through the global instance (docs/federation.md#relay).

-- Origins known only through a relay, and the keys pinned for them (folded from
-- federation.origin_keys_learned; rebuilt from the log).
CREATE TABLE rm_relay_origins (
  origin text PRIMARY KEY,
  name text NOT NULL,
  role text NOT NULL,
  base_url text NOT NULL,
  version integer NOT NULL,
  learned_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE TABLE rm_relay_origin_keys (
  origin text NOT NULL,
  key_id text NOT NULL,
  public_key text NOT NULL,
  valid_from text NOT NULL,
  valid_until text,
  source text NOT NULL,
  pinned_at timestamptz NOT NULL,
  PRIMARY KEY (origin, key_id)
);
-- This instance's choice of origins (folded from federation.relay_following_set; at most one row).
CREATE TABLE rm_relay_following (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  mode text NOT NULL,
  origins text[] NOT NULL,
  version integer NOT NULL,
  updated_at timestamptz NOT NULL
);

-- Runs of a relayed origin's stream versions an import skipped: operational state (like the sync
-- cursors), written with the import that skipped them and settled by the fill from the origin.
CREATE TABLE relay_chain_gaps (
  origin text NOT NULL,
  stream text NOT NULL,
  from_version integer NOT NULL,
  to_version integer NOT NULL,
  state text NOT NULL DEFAULT 'open' CHECK (state IN ('open', 'filled', 'not_public')),
  detected_at timestamptz NOT NULL,
  resolved_at timestamptz,
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL,
  last_error text,
  PRIMARY KEY (origin, stream, from_version)
);
CREATE INDEX relay_chain_gaps_due ON relay_chain_gaps (next_attempt_at) WHERE state = 'open';

-- The relay's side: each peer's following choice, and its copy of each peer's signed manifest.
CREATE TABLE relay_peer_following (
  peer_id text PRIMARY KEY,
  mode text NOT NULL,
  origins text[] NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE TABLE relay_origin_manifests (
  origin text PRIMARY KEY,
  manifest text NOT NULL,
  fetched_at timestamptz NOT NULL
);
