-- The latest events of some actors, newest first, without reading their whole history
-- (PgEventStore.readLatestByActors: the home page's "recent events", svc.log.read_mine with
-- order "newest"). The feed sequence numbers rows in (tx_id, position) order, so this index read
-- backwards from an actor's end gives its events in reverse sequence order; the existing
-- events_actor (actor_id, position) does not, since positions are taken before commit.
CREATE INDEX IF NOT EXISTS events_actor_tx ON events (actor_id, tx_id, position);
