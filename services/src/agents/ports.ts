// The agents area's reads: agents and personas.
import type { AgentView } from '../ports/read-models.js';

export interface AgentReadModels {
  agent(agentId: string): Promise<AgentView | null>;
  /** A person's personas; deleted ones only when asked (their data export, their own log). */
  personasOf(ownerAgentId: string, options?: { includeDeleted?: boolean }): Promise<AgentView[]>;
}

/** The agents area's ports. */
export interface AgentsPorts {
  read: AgentReadModels;
}

/** What the agents area adds to the core services. */
export interface AgentsServices {
  agents: AgentsPorts;
}
