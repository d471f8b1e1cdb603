import type { EventData } from '@tributary/domain';
import {
  applyFederatedAgentEvent,
  applyImportedProfileUpdates,
  FEDERATED_AGENT_EVENTS,
  mergeProfileUpdates,
} from './federated-agents.js';
import { runStatements, type ProjectedEvent, type Projection, type SqlStatement } from './projection.js';

/** Local agent events as statements; remote ones (imported, bindings) need reads, so they have none. */
function agentStatements(e: ProjectedEvent): SqlStatement[] | null {
  if (e.imported || FEDERATED_AGENT_EVENTS.includes(e.type)) return null;
  if (e.type === 'agent.created') {
    const d = e.data as EventData<'agent.created'>;
    return [
      {
        text: `INSERT INTO rm_agents (agent_id, kind, name, handle, owner_agent_id, origin, created_at, updated_at)
               VALUES ($1, $2, $3, $4, $5, $6, $7, $7)`,
        values: [d.agentId, d.kind, d.name, d.handle ?? null, d.ownerAgentId ?? null, e.origin, e.occurredAt],
      },
    ];
  }
  const d = e.data as EventData<'agent.profile_updated'>;
  return [
    {
      text: `UPDATE rm_agents SET
               name = coalesce($2, name), bio = coalesce($3, bio), avatar_url = coalesce($4, avatar_url),
               updated_at = $5, handle = coalesce($6, handle)
             WHERE agent_id = $1`,
      values: [
        e.stream.slice('agent-'.length),
        d.name ?? null,
        d.bio ?? null,
        d.avatarUrl ?? null,
        e.occurredAt,
        d.handle ?? null,
      ],
    },
  ];
}

/** Local profile updates, merged per agent in order, as one UPDATE. */
function localProfileUpdatesStatement(events: readonly ProjectedEvent[]): SqlStatement {
  const merged = mergeProfileUpdates(events, (e) => e.stream.slice('agent-'.length));
  const ids = [...merged.keys()];
  const rows = [...merged.values()];
  return {
    text: `UPDATE rm_agents a SET name = coalesce(u.name, a.name), bio = coalesce(u.bio, a.bio),
       avatar_url = coalesce(u.avatar_url, a.avatar_url), handle = coalesce(u.handle, a.handle), updated_at = u.at
     FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::timestamptz[])
       AS u(agent_id, name, bio, avatar_url, handle, at)
     WHERE a.agent_id = u.agent_id`,
    values: [
      ids,
      rows.map((r) => r.name ?? null),
      rows.map((r) => r.bio ?? null),
      rows.map((r) => r.avatarUrl ?? null),
      rows.map((r) => r.handle ?? null),
      rows.map((r) => r.at),
    ],
  };
}

/** Local agents created, as one INSERT. */
function localAgentsCreatedStatement(events: readonly ProjectedEvent[]): SqlStatement {
  const data = events.map((e) => e.data as EventData<'agent.created'>);
  return {
    text: `INSERT INTO rm_agents (agent_id, kind, name, handle, owner_agent_id, origin, created_at, updated_at)
           SELECT u.*, u.at FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[],
             $7::timestamptz[]) AS u(agent_id, kind, name, handle, owner_agent_id, origin, at)`,
    values: [
      data.map((d) => d.agentId),
      data.map((d) => d.kind),
      data.map((d) => d.name),
      data.map((d) => d.handle ?? null),
      data.map((d) => d.ownerAgentId ?? null),
      events.map((e) => e.origin),
      events.map((e) => e.occurredAt),
    ],
  };
}

const isLocal = (e: ProjectedEvent) => !e.imported && !FEDERATED_AGENT_EVENTS.includes(e.type);

/**
 * Local events only, in runs: consecutive profile updates as one UPDATE, consecutive creations as one
 * INSERT; the result equals applying each event in order (an update never precedes its agent's creation
 * within one run of the other kind, and runs keep their order).
 */
function agentStatementsMany(events: readonly ProjectedEvent[]): SqlStatement[] | null {
  if (!events.every(isLocal)) return null;
  const out: SqlStatement[] = [];
  let run: ProjectedEvent[] = [];
  const flush = () => {
    if (run.length === 0) return;
    out.push(
      run[0]!.type === 'agent.created' ? localAgentsCreatedStatement(run) : localProfileUpdatesStatement(run),
    );
    run = [];
  };
  for (const e of events) {
    if (run.length > 0 && run[0]!.type !== e.type) flush();
    run.push(e);
  }
  flush();
  return out;
}

export const agentsProjection: Projection = {
  name: 'agents',
  mode: 'inline',
  tables: ['rm_agents', 'rm_remote_agents'],
  handles: ['agent.created', 'agent.profile_updated', ...FEDERATED_AGENT_EVENTS],
  statements: agentStatements,
  statementsMany: agentStatementsMany,
  async apply(db, e) {
    const statements = agentStatements(e);
    // Remote agents (imported events, bindings, peer agents) are folded under their local ids.
    if (!statements) return applyFederatedAgentEvent(db, e);
    await runStatements(db, statements);
  },
  // Bulk appends and imports: a run of profile updates (local, or imported) becomes one statement; anything
  // else goes one by one, after the run before it, so the result equals applying every event in order.
  async applyMany(db, events) {
    let run: ProjectedEvent[] = [];
    let runImported = false;
    const flush = async () => {
      if (run.length === 0) return;
      if (runImported) await applyImportedProfileUpdates(db, run);
      else await runStatements(db, [localProfileUpdatesStatement(run)]);
      run = [];
    };
    for (const e of events) {
      if (e.type === 'agent.profile_updated') {
        if (run.length > 0 && runImported !== !!e.imported) await flush();
        runImported = !!e.imported;
        run.push(e);
        continue;
      }
      await flush();
      await agentsProjection.apply(db, e);
    }
    await flush();
  },
};
