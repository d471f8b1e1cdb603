-- Imported agent.created events, many at once: each upgrades the placeholder bound to its remote agent
-- in place, as the per-event statement does (projections/src/agents/federated-agents.ts), and only a row
-- of the event's own origin.
--
-- One call for a page of creations, because a statement per event is parsed and planned per event
-- (docs/benchmarks.md#how-the-costs-were-found); the bindings and placeholders go as two INSERTs over
-- arrays. Planned with sequential scans off, as in migration 0013, so it probes rm_remote_agents' and
-- rm_agents' primary keys at every size, also before the tables have statistics. The caller merges the
-- events per (origin, remote agent) first, the last one winning, as applying them in order would.
CREATE FUNCTION tributary_rm_agents_imported_creations(
  origins text[], remotes text[], kinds text[], names text[], handles text[], ats timestamptz[], owners text[]
) RETURNS void LANGUAGE sql SET enable_seqscan = off AS $$
  UPDATE rm_agents a SET kind = u.kind, name = u.name, remote_handle = u.handle, placeholder = false,
    updated_at = u.at,
    owner_agent_id = CASE WHEN u.owner IS NULL THEN NULL
      ELSE (SELECT o.local_agent_id FROM rm_remote_agents o
            WHERE o.origin = u.origin AND o.remote_agent_id = u.owner) END
  FROM unnest(origins, remotes, kinds, names, handles, ats, owners)
    AS u(origin, remote, kind, name, handle, at, owner)
  JOIN rm_remote_agents r ON r.origin = u.origin AND r.remote_agent_id = u.remote
  WHERE a.agent_id = r.local_agent_id AND a.origin = u.origin
$$;
