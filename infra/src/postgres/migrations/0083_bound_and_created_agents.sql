-- New bindings of remote agents together with those agents' imported agent.created, as one INSERT
-- (projections/src/agents/federated-agents.ts): a catch-up page binds its new agents and carries their
-- creations, and writing each row once, already upgraded, spares the placeholder's INSERT being followed
-- by an UPDATE of the same row (a second heap tuple and index entries, and the lookups through the
-- bindings) for every new agent.
--
-- Equal to the two steps it replaces: a row whose id is already present is kept as it was where the
-- binding alone would have done nothing (a placeholder), and upgraded, as the creation's UPDATE would,
-- only when it is of the creation's origin. The owner is looked up through the bindings, those of this
-- INSERT's statement list included (the caller inserts them first). Planned with sequential scans off, as
-- in migrations 0013 and 0015, so the owner lookup probes the bindings' primary key at every size.
CREATE FUNCTION tributary_rm_agents_bound_and_created(
  agent_ids text[], origins text[], kinds text[], names text[], handles text[], placeholders boolean[],
  created_ats timestamptz[], updated_ats timestamptz[], owners text[]
) RETURNS void LANGUAGE sql SET enable_seqscan = off AS $$
  INSERT INTO rm_agents AS a (agent_id, kind, name, remote_handle, placeholder, origin, created_at, updated_at,
    owner_agent_id)
  SELECT u.agent_id, u.kind, u.name, u.handle, u.placeholder, u.origin, u.created_at, u.updated_at,
    CASE WHEN u.owner IS NULL THEN NULL
      ELSE (SELECT o.local_agent_id FROM rm_remote_agents o
            WHERE o.origin = u.origin AND o.remote_agent_id = u.owner) END
  FROM unnest(agent_ids, origins, kinds, names, handles, placeholders, created_ats, updated_ats, owners)
    AS u(agent_id, origin, kind, name, handle, placeholder, created_at, updated_at, owner)
  ON CONFLICT (agent_id) DO UPDATE SET kind = excluded.kind, name = excluded.name,
    remote_handle = excluded.remote_handle, placeholder = false, updated_at = excluded.updated_at,
    owner_agent_id = excluded.owner_agent_id
  WHERE NOT excluded.placeholder AND a.origin = excluded.origin
$$;
