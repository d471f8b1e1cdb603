-- Federation: the peer registry, remote agents materialized under local ids, and the nonce
-- stores that make signed requests and imported events unreplayable.

-- Read models of the peer registry (folded from peer.* events by the peers projection).
CREATE TABLE rm_peers (
  peer_id        text PRIMARY KEY,
  -- The local agent a peer principal acts as.
  agent_id       text NOT NULL,
  name           text NOT NULL,
  base_url       text NOT NULL,
  role           text NOT NULL,
  -- sha256 (hex) of the shared secret; the secret itself is never stored.
  secret_hash    text NOT NULL,
  blocked        boolean NOT NULL DEFAULT false,
  blocked_reason text,
  registered_at  timestamptz NOT NULL,
  updated_at     timestamptz NOT NULL
);

-- A rotated-out key keeps its row with valid_until set: it still verifies events that occurred before.
CREATE TABLE rm_peer_keys (
  peer_id     text NOT NULL,
  key_id      text NOT NULL,
  public_key  text NOT NULL,
  valid_from  timestamptz NOT NULL,
  valid_until timestamptz,
  PRIMARY KEY (peer_id, key_id)
);
CREATE INDEX rm_peer_keys_key ON rm_peer_keys (key_id);

-- Remote agent ids (as their origin names them) bound to the local ids they are materialized under
-- (folded from agent.materialized by the agents projection). A binding never changes.
CREATE TABLE rm_remote_agents (
  origin          text NOT NULL,
  remote_agent_id text NOT NULL,
  local_agent_id  text NOT NULL UNIQUE,
  bound_at        timestamptz NOT NULL,
  PRIMARY KEY (origin, remote_agent_id)
);
CREATE INDEX rm_remote_agents_remote ON rm_remote_agents (remote_agent_id);

-- A remote agent's handle is the origin's, not ours: kept apart from the unique local handle column.
ALTER TABLE rm_agents ADD COLUMN remote_handle text;

-- Operational state, not domain facts: nonces of signed requests per peer, kept for the clock-skew
-- window (a request outside it is refused as stale anyway), pruned as they expire.
CREATE TABLE peer_request_nonces (
  peer_id    text NOT NULL,
  nonce      text NOT NULL,
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (peer_id, nonce)
);
CREATE INDEX peer_request_nonces_expiry ON peer_request_nonces (expires_at);

-- Nonces of imported events per origin, kept for the replay window (older events are refused anyway).
-- Events themselves are deduplicated by (origin, id) for ever by the log's own unique constraint.
CREATE TABLE peer_event_nonces (
  origin     text NOT NULL,
  nonce      text NOT NULL,
  event_id   text NOT NULL,
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (origin, nonce)
);
CREATE INDEX peer_event_nonces_expiry ON peer_event_nonces (expires_at);
