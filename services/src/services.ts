// What spans every area, at the top of services/ beside the catalogue, so neither the pipeline nor the
// core ports name an area (docs/architecture.md#layers).
import type { AccountReadModels } from './accounts/ports.js';
import type { AgentReadModels } from './agents/ports.js';
import type { AgentAccessReadModels } from './tokens/ports/agent-access-read-models.js';
import type { ManifestReadModels } from './manifests/ports.js';
import type { PresenceReadModels } from './spatial/ports.js';
import type { AssistantThreadReadModels } from './assistant/ports/assistant-read-models.js';
import type { AssistantVaultReadModels } from './assistant/ports/assistant-vault-read-models.js';
import type { AttachmentReadModels } from './assistant/ports/assistant-attachment-read-models.js';
import type { BuilderReadModels } from './builder/ports/builder-read-models.js';
import type { OAuthReadModels } from './oauth/ports/oauth-read-models.js';
import type { InstanceReadModels } from './ports/read-models.js';

/**
 * Every area's reads as projections/ builds them in one go (`createReadModels`); the composition hands
 * each area its group as `services.<area>.read`.
 */
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
