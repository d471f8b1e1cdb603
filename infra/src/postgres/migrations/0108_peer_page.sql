-- The operator's peer list is paged in registration order (docs/api.md#peers): a page after a cursor is
-- an index range, however many peers are registered.
CREATE INDEX rm_peers_registered ON rm_peers (registered_at, peer_id);
