// What the services read from projections. projections/ implements these shapes; infra wires them.
import type { AgentAccessReadModels } from '../tokens/ports/agent-access-read-models.js';
import type { AssistantThreadReadModels } from '../assistant/ports/assistant-read-models.js';
import type { AssistantVaultReadModels } from '../assistant/ports/assistant-vault-read-models.js';
import type { AttachmentReadModels } from '../assistant/ports/assistant-attachment-read-models.js';
import type { BuilderReadModels } from '../builder/ports/builder-read-models.js';
import type { OAuthReadModels } from '../oauth/ports/oauth-read-models.js';

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

export interface AccountView {
  accountId: string;
  agentId: string;
  email: string | null;
  handle: string | null;
  createdAt: string;
  /** When its current address was verified (svc.auth.verify_email); null when it is not. */
  emailVerifiedAt: string | null;
}

export interface SessionView {
  sessionId: string;
  accountId: string;
  expiresAt: string;
  endedAt: string | null;
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

export interface AccountReadModels {
  accountById(accountId: string): Promise<AccountView | null>;
  /** Finds an account by email (normalized) or handle. */
  accountByIdentifier(identifier: string): Promise<AccountView | null>;
  sessionByTokenHash(tokenHash: string): Promise<SessionView | null>;
}

/** The manifests area's reads (rm_manifest_publications). */
export interface ManifestReadModels {
  /** The agent owner's choice about its universal manifest; null when they never chose (unpublished). */
  agentPublication(agentId: string): Promise<{ published: boolean; updatedAt: string } | null>;
}

/** Someone present at a hosted world's door (rm_spatial_presence). */
export interface PresenceView {
  receiptId: string;
  worldId: string;
  subject: string;
  issuer: { instanceId: string; baseUrl: string };
  content: { name?: string; avatarAssetURI?: string; home?: string };
  admittedAt: string;
  renewedAt: string;
  expiresAt: string;
}

/** The spatial area's presence reads. */
export interface PresenceReadModels {
  /** A presence by its receipt id, live or expired. */
  presence(receiptId: string): Promise<PresenceView | null>;
  /** The subject's live presence (the one lasting longest), at one world when given. */
  livePresenceOf(subject: string, now: Date, worldId?: string): Promise<PresenceView | null>;
  /** Live presences at a world now, and how many subjects were ever present there. */
  presenceCounts(worldId: string, now: Date): Promise<{ active: number; total: number }>;
}

/** What the services read from projections, one group per area. */
export interface ReadModels {
  instance: InstanceReadModels;
  agents: AgentReadModels;
  accounts: AccountReadModels;
  tokens: AgentAccessReadModels;
  oauth: OAuthReadModels;
  builder: BuilderReadModels;
  /** The assistant's threads, messages and plans. */
  assistantThreads: AssistantThreadReadModels;
  /** The assistant's vault document. */
  assistantVault: AssistantVaultReadModels;
  manifests: ManifestReadModels;
  presence: PresenceReadModels;
  /** Pictures handed to the assistant. */
  assistantAttachments: AttachmentReadModels;
}
