-- events_actor (actor_id, position) answers nothing events_actor_tx (actor_id, tx_id, position,
-- migration 0064) does not: every query by actor (readByActors, readLatestByActors) looks actors up by
-- equality and orders by the sequence or by (tx_id, position). One index fewer to write for every event
-- appended or imported.
DROP INDEX IF EXISTS events_actor;
