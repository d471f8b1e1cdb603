-- The rest of the federation surface: peer mutations applied here, folded from their
-- peer.mutation_applied receipts. A mutation id and a nonce apply once per peer, for ever.
CREATE TABLE rm_peer_mutations (
  peer_id      text NOT NULL,
  mutation_id  text NOT NULL,
  nonce        text NOT NULL,
  operation    text NOT NULL,
  issued_at    timestamptz NOT NULL,
  applied_at   timestamptz NOT NULL,
  PRIMARY KEY (peer_id, mutation_id),
  CONSTRAINT rm_peer_mutations_nonce UNIQUE (peer_id, nonce)
);

-- Discovery by a peer's domain.
CREATE INDEX rm_peers_base_url ON rm_peers (base_url);
-- Queries of our own public events by type or stream.
CREATE INDEX events_type_position ON events (type, position) WHERE feed;
