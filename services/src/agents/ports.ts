// The agents area's reads: agents, personas, whom an agent follows.
import type { AgentView } from '../ports/read-models.js';

export interface AgentReadModels {
  agent(agentId: string): Promise<AgentView | null>;
  /** A person's personas; deleted ones only when asked (their data export, their own log). */
  personasOf(ownerAgentId: string, options?: { includeDeleted?: boolean }): Promise<AgentView[]>;
  /** The agents `agentId` follows, by their id here, in the order of those ids (after `after`). */
  followedBy(agentId: string, page: { limit: number; after?: string | undefined }): Promise<FollowView[]>;
}

/** An agent someone here follows: its id here, where it lives, and since when. */
export interface FollowView {
  agentId: string;
  origin: string;
  followedAt: string;
}

/** The agents area's ports. */
export interface AgentsPorts {
  read: AgentReadModels;
}

/** What the agents area adds to the core services. */
export interface AgentsServices {
  agents: AgentsPorts;
}
