// What spans every area, at the top of services/ beside the catalogue, so neither the pipeline nor the
// core ports name an area (docs/architecture.md#layers).
import type { AccountReadModels, AccountsServices } from './accounts/ports.js';
import type { AgentReadModels, AgentsServices } from './agents/ports.js';
import type { AgentAccessReadModels } from './tokens/ports/agent-access-read-models.js';
import type { ManifestReadModels, ManifestsServices } from './manifests/ports.js';
import type { AssistantThreadReadModels } from './assistant/ports/assistant-read-models.js';
import type { AssistantVaultReadModels } from './assistant/ports/assistant-vault-read-models.js';
import type { AttachmentReadModels } from './assistant/ports/assistant-attachment-read-models.js';
import type { BuilderReadModels } from './builder/ports/builder-read-models.js';
import type { OAuthReadModels } from './oauth/ports/oauth-read-models.js';
import type { InstanceReadModels } from './ports/read-models.js';
import type { AssistantServices } from './assistant/ports/index.js';
import type { BuilderServices } from './builder/ports/index.js';
import type { FederationServices, FederationSurfaceServices } from './federation/ports/index.js';
import type { InstanceServices } from './instance/ports.js';
import type { MailServices } from './mail/ports.js';
import type { OAuthServices } from './oauth/ports/index.js';
import type { PaymentsServices } from './payments/ports.js';
import type { CoreServices } from './pipeline/services.js';
import type { PresenceReadModels, PresenceServices, SpatialServices } from './spatial/ports.js';
import type { SsoServices } from './sso/ports.js';
import type { TokensServices } from './tokens/ports/index.js';

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

/**
 * Everything an operation may be handed: the core and every area's slice, as infra's composition root
 * fills them (infra/src/compose/compose-<area>.ts). An area that may be left out is optional here; its
 * operations declare it required, and the catalogue answers them unavailable where it is absent.
 */
export type Services = CoreServices &
  AccountsServices &
  AgentsServices &
  ManifestsServices &
  PresenceServices &
  OAuthServices &
  TokensServices &
  BuilderServices &
  AssistantServices &
  InstanceServices &
  Partial<SpatialServices> &
  Partial<FederationServices> &
  Partial<FederationSurfaceServices> &
  Partial<PaymentsServices> &
  Partial<MailServices> &
  Partial<SsoServices>;
