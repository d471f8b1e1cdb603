-- The agents projection's bulk profile updates reach their rows through indexes at every table size
-- (docs/log.md#queries-that-never-read-a-whole-table).
--
-- As plain UPDATE … FROM unnest(…) statements they can be planned as a scan of all of rm_agents while the
-- table has no statistics, which a server without autovacuum never gathers. As SQL functions planned
-- with sequential scans off they can only probe rm_agents_pkey (and, for imported updates,
-- rm_remote_agents' primary key). What each statement does is unchanged (projections/src/agents).

-- Local profile updates, merged per agent: each field keeps its new value unless null.
CREATE FUNCTION tributary_rm_agents_local_profile_updates(
  ids text[], names text[], bios text[], avatar_urls text[], handles text[], ats timestamptz[]
) RETURNS void LANGUAGE sql SET enable_seqscan = off AS $$
  UPDATE rm_agents a SET name = coalesce(u.name, a.name), bio = coalesce(u.bio, a.bio),
    avatar_url = coalesce(u.avatar_url, a.avatar_url), handle = coalesce(u.handle, a.handle), updated_at = u.at
  FROM unnest(ids, names, bios, avatar_urls, handles, ats) AS u(agent_id, name, bio, avatar_url, handle, at)
  WHERE a.agent_id = u.agent_id AND a.agent_id = ANY(ids)
$$;

-- Imported profile updates, merged per (origin, remote agent), under the local ids they are bound to;
-- only rows of that origin are touched.
CREATE FUNCTION tributary_rm_agents_imported_profile_updates(
  origins text[], remotes text[], names text[], bios text[], avatar_urls text[], handles text[], ats timestamptz[]
) RETURNS void LANGUAGE sql SET enable_seqscan = off AS $$
  UPDATE rm_agents a SET name = coalesce(u.name, a.name), bio = coalesce(u.bio, a.bio),
    avatar_url = coalesce(u.avatar_url, a.avatar_url), remote_handle = coalesce(u.handle, a.remote_handle),
    updated_at = u.at
  FROM unnest(origins, remotes, names, bios, avatar_urls, handles, ats)
    AS u(origin, remote, name, bio, avatar_url, handle, at)
  JOIN rm_remote_agents r ON r.origin = u.origin AND r.remote_agent_id = u.remote
  WHERE a.agent_id = r.local_agent_id AND a.origin = u.origin
$$;
