import type { EventData } from '@tributary/domain';
import {
  FEDERATED_AGENT_EVENTS,
  federatedAgentStatements,
  importedCreationsStatement,
  importedProfileUpdatesStatements,
  materializationsAndCreationsStatements,
  materializationsStatements,
  mergeProfileUpdates,
} from './federated-agents.js';
import {
  runStatements,
  type ProjectedEvent,
  type Projection,
  type SqlStatement,
} from '../shared/projection.js';

/** An agent event as statements; remote agents (imported events, bindings) under their local ids. */
function agentStatements(e: ProjectedEvent): SqlStatement[] {
  if (!isLocal(e)) return federatedAgentStatements(e);
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
  if (e.type === 'agent.deleted')
    return [
      {
        text: `UPDATE rm_agents SET deleted_at = $2, updated_at = $2 WHERE agent_id = $1`,
        values: [e.stream.slice('agent-'.length), e.occurredAt],
      },
    ];
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

/**
 * Local profile updates, merged per agent in order, as one UPDATE — run by a database function
 * (migration 0013) that plans it on the primary key at every table size: as a plain statement it read
 * the whole table per batch while rm_agents had thousands of rows and no statistics.
 */
function localProfileUpdatesStatement(events: readonly ProjectedEvent[]): SqlStatement {
  const merged = mergeProfileUpdates(events, (e) => e.stream.slice('agent-'.length));
  const ids = [...merged.keys()];
  const rows = [...merged.values()];
  return {
    text: `SELECT tributary_rm_agents_local_profile_updates($1::text[], $2::text[], $3::text[], $4::text[],
             $5::text[], $6::timestamptz[])`,
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

function isLocal(e: ProjectedEvent): boolean {
  return !e.imported && !FEDERATED_AGENT_EVENTS.includes(e.type);
}

/**
 * Runs of one kind that fold in bulk: local creations, local or imported profile updates, new bindings
 * of remote agents (with their placeholders), imported creations (placeholder upgrades).
 */
function runKind(e: ProjectedEvent): string | null {
  if (e.type === 'agent.profile_updated') return e.imported ? 'imported-updates' : 'local-updates';
  if (e.type === 'agent.created') return e.imported ? 'imported-creations' : 'local-creations';
  if ((e.type === 'agent.materialized' || e.type === 'agents.materialized') && !e.imported)
    return 'materializations';
  return null;
}

/**
 * Many events in runs: consecutive local profile updates as one UPDATE, consecutive local creations as
 * one INSERT, consecutive imported profile updates as one UPDATE, consecutive bindings as two INSERTs,
 * consecutive imported creations as one UPDATE — bindings followed at once by creations as one pass that
 * writes each new agent's row once; anything else event by event. Runs keep their order, so the result
 * equals applying every event in order.
 */
function agentStatementsMany(events: readonly ProjectedEvent[]): SqlStatement[] {
  const runs: { kind: string | null; events: ProjectedEvent[] }[] = [];
  for (const e of events) {
    const kind = runKind(e);
    const run = runs[runs.length - 1];
    if (run && kind !== null && run.kind === kind) run.events.push(e);
    else runs.push({ kind, events: [e] });
  }
  const out: SqlStatement[] = [];
  for (let i = 0; i < runs.length; i++) {
    const { kind, events: run } = runs[i]!;
    if (kind === null) out.push(...agentStatements(run[0]!));
    else if (kind === 'local-creations') out.push(localAgentsCreatedStatement(run));
    else if (kind === 'local-updates') out.push(localProfileUpdatesStatement(run));
    else if (kind === 'materializations' && runs[i + 1]?.kind === 'imported-creations')
      // New agents and their creations (a catch-up page): each row written once, already upgraded.
      out.push(...materializationsAndCreationsStatements(run, runs[++i]!.events));
    else if (kind === 'materializations') out.push(...materializationsStatements(run));
    else if (kind === 'imported-creations') out.push(importedCreationsStatement(run));
    else out.push(...importedProfileUpdatesStatements(run));
  }
  return out;
}

export const agentsProjection: Projection = {
  name: 'agents',
  mode: 'inline',
  tables: ['rm_agents', 'rm_remote_agents'],
  // Peers' agents are folded under their local ids.
  foldsImported: true,
  handles: ['agent.created', 'agent.profile_updated', 'agent.deleted', ...FEDERATED_AGENT_EVENTS],
  statements: agentStatements,
  statementsMany: agentStatementsMany,
  apply: (db, e) => runStatements(db, agentStatements(e)),
  applyMany: (db, events) => runStatements(db, agentStatementsMany(events)),
};
