// The ports the pipeline and the operations run on (docs/architecture.md#layers).
import type { AccountsPorts } from '../accounts/ports.js';
import type { AgentsPorts } from '../agents/ports.js';
import type { ManifestsPorts } from '../manifests/ports.js';
import type {
  AssistantAccountPorts,
  AssistantAttachmentPorts,
  AssistantChatPorts,
  AssistantPlanPorts,
  AssistantPorts,
} from '../assistant/ports/index.js';
import type { BuilderPorts } from '../builder/ports/index.js';
import type { FederationServices, FederationSurfaceServices } from '../federation/ports/index.js';
import type { MailPorts } from '../mail/ports.js';
import type { OAuthPorts } from '../oauth/ports/index.js';
import type { PaymentsPorts } from '../payments/ports.js';
import type { PresencePorts, SpatialPorts } from '../spatial/ports.js';
import type { SsoPorts } from '../sso/ports.js';
import type { TokensPorts } from '../tokens/ports/index.js';
import type { EventStore } from '../ports/event-store.js';
import type { OperationMetrics } from '../ports/metrics.js';
import type { InstanceReadModels } from '../ports/read-models.js';
import type { Clock, Ids } from '../ports/runtime.js';
import type { Signer } from '../ports/signer.js';
import type { StreamStateCache } from './stream-state-cache.js';

interface OAuthLifetimes {
  codeSeconds: number;
  accessTokenSeconds: number;
  refreshTokenSeconds: number;
  /** A refresh-token family's whole life from consent; rotation does not extend it. */
  refreshAbsoluteSeconds: number;
  deviceCodeSeconds: number;
}

/**
 * The ports the pipeline and the operations run on, the log's own first, then one group per area;
 * infra's composition root fills them (infra/src/compose/compose-<area>.ts).
 */
export interface Services {
  store: EventStore;
  signer: Signer;
  clock: Clock;
  ids: Ids;
  /**
   * Stream states folded by earlier commands, so a command reads only what its streams gained since;
   * absent, every command reads its streams whole.
   */
  streamStates?: StreamStateCache | undefined;
  /** The instance itself; every command reads it (and its acting agent) first. */
  instance: { read: InstanceReadModels };
  /** Told about every finished invocation (docs/operations.md#metrics); absent, nothing is counted. */
  metrics?: OperationMetrics | undefined;
  accounts: AccountsPorts;
  agents: AgentsPorts;
  manifests: ManifestsPorts;
  presence: PresencePorts;
  oauth: OAuthPorts;
  tokens: TokensPorts;
  builder: BuilderPorts;
  /** Hosted worlds; absent where the spatial area is not composed (its operations then fail). */
  spatial?: SpatialPorts | undefined;
  /** The assistant's model and turn limits; absent, a chat answers `assistant.model_unavailable`. */
  assistantChat?: AssistantChatPorts | undefined;
  /** How confirmed plans run; absent, the defaults (docs/assistant.md#limits). */
  assistantPlans?: AssistantPlanPorts | undefined;
  assistant: AssistantPorts;
  /**
   * The connected external-assistant account: the provider's client and the encrypted secrets; absent
   * where the process does not compose it (then the account operations answer not configured).
   */
  assistantAccount?: AssistantAccountPorts | undefined;
  /** Pictures handed to the assistant. */
  assistantAttachments: AssistantAttachmentPorts;
  /**
   * Writes a new signing key's file to the key folder and names it (docs/operations.md#rotating-the-signing-key);
   * absent where the process holds no key folder (svc.instance.rotate_key then answers unavailable).
   */
  instanceKeys?: { create(): { keyId: string; publicKey: string } } | undefined;
  /** Peer registry, import verification and the federation stores; absent where nothing federates. */
  federation?: FederationServices | undefined;
  /** Query, entity-status, discover, manifests and peer mutations; absent where nothing federates. */
  federationSurface?: FederationSurfaceServices | undefined;
  /** Payments (docs/payments.md); absent where the area is not composed (its operations then answer `payments.disabled`). */
  payments?: PaymentsPorts | undefined;
  /** Transactional mail (docs/mail.md); absent where the process composes none (mail operations then fail). */
  mail?: MailPorts | undefined;
  /** Single sign-on (docs/sso.md); absent where it is not composed (its operations then answer unavailable). */
  sso?: SsoPorts | undefined;
  config: {
    /** When the `svc.legacy.unscoped` wildcard stops being honoured. */
    legacyUnscopedSunset?: Date | undefined;
    sessionTtlSeconds: number;
    /** Every scope a token can usefully carry here (`supportedScopes()`): the bound of every OAuth grant. */
    scopesSupported: readonly string[];
    /** OAuth lifetimes in seconds (OAUTH_*_SECONDS). */
    oauth: OAuthLifetimes;
    /**
     * Travellers (docs/spatial.md#travellers): how long a presentation this instance issues lives
     * (SPATIAL_PRESENTATION_SECONDS) and how long a presence at its door lasts unless renewed
     * (SPATIAL_PRESENCE_SECONDS). Unset: the domain's defaults.
     */
    travellers?: { presentationSeconds: number; presenceSeconds: number } | undefined;
  };
}
