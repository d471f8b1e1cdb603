// How remote agents appear in rm_agents: each remote id is bound once (agent.materialized, or one of the
// many bindings of an agents.materialized) to a local id, first as a private placeholder; the origin's own agent.created upgrades that row in place. Only
// rows whose origin is the event's origin are touched, so no other instance can upgrade or rename them.
import type {
  AgentMaterializedData,
  AgentsMaterializedData,
  EventData,
  PeerRegisteredData,
} from '@tributary/domain';
import type { ProjectedEvent, SqlStatement } from '../shared/projection.js';

/** Local events about remote agents, folded by the agents projection alongside imported ones. */
export const FEDERATED_AGENT_EVENTS: readonly string[] = [
  'agent.materialized',
  'agents.materialized',
  'peer.registered',
];

const LOCAL_ID = `(SELECT local_agent_id FROM rm_remote_agents WHERE origin = $1 AND remote_agent_id = $2)`;

/**
 * The statements that fold a local event about a remote agent, or an imported agent event, under the
 * local ids it is bound to (the bindings are looked up by the statements themselves).
 */
export function federatedAgentStatements(e: ProjectedEvent): SqlStatement[] {
  if (!e.imported) {
    if (e.type === 'agent.materialized') {
      const d = e.data as AgentMaterializedData;
      return [
        {
          text: `INSERT INTO rm_remote_agents (origin, remote_agent_id, local_agent_id, bound_at) VALUES ($1, $2, $3, $4)`,
          values: [d.origin, d.remoteAgentId, d.agentId, e.occurredAt],
        },
        {
          text: `INSERT INTO rm_agents (agent_id, kind, name, placeholder, origin, created_at, updated_at)
         VALUES ($1, 'unknown', '', true, $2, $3, $3) ON CONFLICT (agent_id) DO NOTHING`,
          values: [d.agentId, d.origin, e.occurredAt],
        },
      ];
    }
    if (e.type === 'agents.materialized') return materializationsStatements([e]);
    if (e.type === 'peer.registered') {
      // The local agent that stands for a peer instance (what a peer principal acts as).
      const d = e.data as PeerRegisteredData;
      return [
        {
          text: `INSERT INTO rm_agents (agent_id, kind, name, origin, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $5)`,
          values: [d.agentId, d.role, d.name, d.peerId, e.occurredAt],
        },
      ];
    }
    return [];
  }
  if (e.type === 'agent.created') {
    const d = e.data as EventData<'agent.created'>;
    return [
      {
        text: `UPDATE rm_agents SET kind = $3, name = $4, remote_handle = $5, placeholder = false, updated_at = $6,
         owner_agent_id = CASE WHEN $7::text IS NULL THEN NULL
           ELSE (SELECT local_agent_id FROM rm_remote_agents WHERE origin = $1 AND remote_agent_id = $7) END
       WHERE agent_id = ${LOCAL_ID} AND origin = $1`,
        values: [e.origin, d.agentId, d.kind, d.name, d.handle ?? null, e.occurredAt, d.ownerAgentId ?? null],
      },
    ];
  }
  if (e.type === 'agent.profile_updated' && e.stream.startsWith('agent-')) {
    const d = e.data as EventData<'agent.profile_updated'>;
    return [
      {
        text: `UPDATE rm_agents SET name = coalesce($3, name), bio = coalesce($4, bio),
         avatar_url = coalesce($5, avatar_url), remote_handle = coalesce($6, remote_handle), updated_at = $7
       WHERE agent_id = ${LOCAL_ID} AND origin = $1`,
        values: [
          e.origin,
          e.stream.slice('agent-'.length),
          d.name ?? null,
          d.bio ?? null,
          d.avatarUrl ?? null,
          d.handle ?? null,
          e.occurredAt,
        ],
      },
    ];
  }
  if (e.type === 'agent.deleted' && e.stream.startsWith('agent-'))
    return [
      {
        text: `UPDATE rm_agents SET deleted_at = $3, updated_at = $3 WHERE agent_id = ${LOCAL_ID} AND origin = $1`,
        values: [e.origin, e.stream.slice('agent-'.length), e.occurredAt],
      },
    ];
  return [];
}

/**
 * Many imported `agent.profile_updated` events as one UPDATE: per agent, each field keeps its last
 * non-null value and the time of the last event, exactly as applying them one by one would.
 */
interface MergedProfile {
  origin: string;
  remote: string;
  name?: string;
  bio?: string;
  avatarUrl?: string;
  handle?: string;
  at: string;
}

/** Profile updates folded per key in order: the last value of each field wins, as one by one would. */
export function mergeProfileUpdates(
  events: readonly ProjectedEvent[],
  keyOf: (e: ProjectedEvent) => string,
): Map<string, MergedProfile> {
  const merged = new Map<string, MergedProfile>();
  for (const e of events) {
    const key = keyOf(e);
    const m = merged.get(key) ?? {
      origin: e.origin,
      remote: e.stream.slice('agent-'.length),
      at: e.occurredAt,
    };
    const d = e.data as EventData<'agent.profile_updated'>;
    if (d.name !== undefined) m.name = d.name;
    if (d.bio !== undefined) m.bio = d.bio;
    if (d.avatarUrl !== undefined) m.avatarUrl = d.avatarUrl;
    if (d.handle !== undefined) m.handle = d.handle;
    m.at = e.occurredAt;
    merged.set(key, m);
  }
  return merged;
}

/** Many imported profile updates as one UPDATE (none when no event is about an agent stream). */
export function importedProfileUpdatesStatements(events: readonly ProjectedEvent[]): SqlStatement[] {
  const merged = mergeProfileUpdates(
    events.filter((e) => e.stream.startsWith('agent-')),
    (e) => `${e.origin} ${e.stream.slice('agent-'.length)}`,
  );
  const rows = [...merged.values()];
  if (rows.length === 0) return [];
  return [
    {
      // Run by a database function (migration 0013) that plans it on the primary keys at every size.
      text: `SELECT tributary_rm_agents_imported_profile_updates($1::text[], $2::text[], $3::text[], $4::text[],
               $5::text[], $6::text[], $7::timestamptz[])`,
      values: [
        rows.map((r) => r.origin),
        rows.map((r) => r.remote),
        rows.map((r) => r.name ?? null),
        rows.map((r) => r.bio ?? null),
        rows.map((r) => r.avatarUrl ?? null),
        rows.map((r) => r.handle ?? null),
        rows.map((r) => r.at),
      ],
    },
  ];
}

/** Each binding a local `agent.materialized` or `agents.materialized` records, in order. */
function bindingsOf(events: readonly ProjectedEvent[]): { data: AgentMaterializedData; at: string }[] {
  return events.flatMap((e) => {
    if (e.type === 'agent.materialized') return [{ data: e.data as AgentMaterializedData, at: e.occurredAt }];
    const d = e.data as AgentsMaterializedData;
    return d.bindings.map((b) => ({
      data: { agentId: b.agentId, origin: d.origin, remoteAgentId: b.remoteAgentId },
      at: e.occurredAt,
    }));
  });
}

type Binding = ReturnType<typeof bindingsOf>[number];

/** The bindings' INSERT into rm_remote_agents, in order. */
function bindingsInsert(all: readonly Binding[]): SqlStatement {
  return {
    text: `INSERT INTO rm_remote_agents (origin, remote_agent_id, local_agent_id, bound_at)
           SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::timestamptz[])`,
    values: [
      all.map((b) => b.data.origin),
      all.map((b) => b.data.remoteAgentId),
      all.map((b) => b.data.agentId),
      all.map((b) => b.at),
    ],
  };
}

/**
 * Many local `agent.materialized` / `agents.materialized` events as two INSERTs over arrays: the
 * bindings, then the private placeholders (an agent id already present keeps its row, as event by event).
 * The tables are apart and each keeps the bindings' order, so the result equals applying the bindings one
 * by one.
 */
export function materializationsStatements(events: readonly ProjectedEvent[]): SqlStatement[] {
  const all = bindingsOf(events);
  const data = all.map((b) => b.data);
  const at = all.map((b) => b.at);
  return [
    bindingsInsert(all),
    {
      text: `INSERT INTO rm_agents (agent_id, kind, name, placeholder, origin, created_at, updated_at)
             SELECT u.agent_id, 'unknown', '', true, u.origin, u.at, u.at
             FROM unnest($1::text[], $2::text[], $3::timestamptz[]) AS u(agent_id, origin, at)
             ON CONFLICT (agent_id) DO NOTHING`,
      values: [data.map((d) => d.agentId), data.map((d) => d.origin), at],
    },
  ];
}

/**
 * A run of new bindings immediately followed by a run of imported `agent.created` events (a catch-up
 * page: the import's `agents.materialized` records, then the origin's events), folded so that each agent
 * bound here and created in the run is written once, already upgraded: the bindings' INSERT, then one
 * call of a database function (migration 0083) that inserts every bound agent's row — a placeholder where
 * no creation came, the creation's values where one did — and the creations of agents bound earlier as
 * `importedCreationsStatement`. The result equals the two runs applied in order: the creations are merged
 * per (origin, remote agent) first, the last one winning, and a creation only upgrades a binding of its
 * own origin.
 */
export function materializationsAndCreationsStatements(
  bindingEvents: readonly ProjectedEvent[],
  creations: readonly ProjectedEvent[],
): SqlStatement[] {
  const all = bindingsOf(bindingEvents);
  const last = lastCreations(creations);
  const rows = all.map(({ data: d, at }) => {
    const key = `${d.origin} ${d.remoteAgentId}`;
    const c = last.get(key);
    if (c) last.delete(key);
    const cd = c?.data as EventData<'agent.created'> | undefined;
    return {
      agentId: d.agentId,
      origin: d.origin,
      kind: cd?.kind ?? 'unknown',
      name: cd?.name ?? '',
      handle: cd?.handle ?? null,
      placeholder: !c,
      createdAt: at,
      updatedAt: c ? c.occurredAt : at,
      owner: cd?.ownerAgentId ?? null,
    };
  });
  const statements: SqlStatement[] = [
    bindingsInsert(all),
    {
      text: `SELECT tributary_rm_agents_bound_and_created($1::text[], $2::text[], $3::text[], $4::text[],
               $5::text[], $6::boolean[], $7::timestamptz[], $8::timestamptz[], $9::text[])`,
      values: [
        rows.map((r) => r.agentId),
        rows.map((r) => r.origin),
        rows.map((r) => r.kind),
        rows.map((r) => r.name),
        rows.map((r) => r.handle),
        rows.map((r) => r.placeholder),
        rows.map((r) => r.createdAt),
        rows.map((r) => r.updatedAt),
        rows.map((r) => r.owner),
      ],
    },
  ];
  // Creations of agents bound before this run (or not bound here at all: they change nothing).
  if (last.size > 0) statements.push(importedCreationsStatement([...last.values()]));
  return statements;
}

/** Per (origin, remote agent), its last creation, in the order of each key's last event. */
function lastCreations(events: readonly ProjectedEvent[]): Map<string, ProjectedEvent> {
  const last = new Map<string, ProjectedEvent>();
  for (const e of events) {
    const key = `${e.origin} ${(e.data as EventData<'agent.created'>).agentId}`;
    last.delete(key); // re-inserted: the merged rows keep the order of each key's last event
    last.set(key, e);
  }
  return last;
}

/**
 * Many imported `agent.created` events as one call of a database function (migration 0015) that upgrades
 * each bound placeholder in place. An upgrade sets every column, so of several events for one remote agent
 * the last one decides, as applying them in order would; they are merged so first.
 */
export function importedCreationsStatement(events: readonly ProjectedEvent[]): SqlStatement {
  const rows = [...lastCreations(events).values()];
  const data = rows.map((e) => e.data as EventData<'agent.created'>);
  return {
    text: `SELECT tributary_rm_agents_imported_creations($1::text[], $2::text[], $3::text[], $4::text[],
             $5::text[], $6::timestamptz[], $7::text[])`,
    values: [
      rows.map((e) => e.origin),
      data.map((d) => d.agentId),
      data.map((d) => d.kind),
      data.map((d) => d.name),
      data.map((d) => d.handle ?? null),
      rows.map((e) => e.occurredAt),
      data.map((d) => d.ownerAgentId ?? null),
    ],
  };
}
