// The core views every operation sees (the instance and its acting agent) and the instance's reads.
// projections/ implements these shapes; each area's own reads are in its ports.

export interface AgentView {
  agentId: string;
  kind: string;
  name: string;
  handle: string | null;
  ownerAgentId: string | null;
  bio: string | null;
  avatarUrl: string | null;
  placeholder: boolean;
  origin: string | null;
  createdAt: string;
  /** When its owner deleted it (a persona); null while it lives. */
  deletedAt: string | null;
}

export interface InstanceView {
  instanceId: string;
  role: string;
  name: string;
  baseUrl: string;
  primaryAgentId: string;
  controllers: string[];
}

/** The instance area's reads: every command reads the instance (and its acting agent) first. */
export interface InstanceReadModels {
  get(): Promise<InstanceView | null>;
  /**
   * The instance and one agent in a single read (every command needs both before it runs): the agent
   * `agentId`, or with null the instance's primary agent; a deleted persona reads as no agent, as in
   * `agents.agent`. Both null before the instance is initialized.
   */
  withAgent(agentId: string | null): Promise<{ instance: InstanceView | null; agent: AgentView | null }>;
}
