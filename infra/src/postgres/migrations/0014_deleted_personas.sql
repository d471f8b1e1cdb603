-- A deleted persona keeps its row in the agents read model, marked with when it was deleted: ownership
-- checks, persona lists, the registry and discovery then pass it over, and the reconciliation probe can
-- answer "deleted" for it (a missing row would read as "missing"). For a remote agent the same column
-- records its origin's agent.deleted.
ALTER TABLE rm_agents ADD COLUMN deleted_at timestamptz;
