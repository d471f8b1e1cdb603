import type { EventData } from '@tributary/domain';
import {
  applyFederatedAgentEvent,
  applyImportedProfileUpdates,
  FEDERATED_AGENT_EVENTS,
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

export const agentsProjection: Projection = {
  name: 'agents',
  mode: 'inline',
  tables: ['rm_agents', 'rm_remote_agents'],
  handles: ['agent.created', 'agent.profile_updated', ...FEDERATED_AGENT_EVENTS],
  statements: agentStatements,
  async apply(db, e) {
    const statements = agentStatements(e);
    // Remote agents (imported events, bindings, peer agents) are folded under their local ids.
    if (!statements) return applyFederatedAgentEvent(db, e);
    await runStatements(db, statements);
  },
  // Bulk imports: a run of imported profile updates becomes one statement; anything else goes one by
  // one, after the run before it, so the result equals applying every event in order.
  async applyMany(db, events) {
    let run: ProjectedEvent[] = [];
    for (const e of events) {
      if (e.imported && e.type === 'agent.profile_updated') {
        run.push(e);
        continue;
      }
      if (run.length > 0) await applyImportedProfileUpdates(db, run);
      run = [];
      await agentsProjection.apply(db, e);
    }
    if (run.length > 0) await applyImportedProfileUpdates(db, run);
  },
};
