import type { AccessTokens } from '../ports/access-tokens.js';
import type { AssistantAccountPorts } from '../ports/assistant-account.js';
import type { BlobStore } from '../ports/blob-store.js';
import type { RemoteViewerCredentials } from '../ports/remote-viewer-credentials.js';
import type { CustomDomainPorts } from '../ports/custom-domains.js';
import type { EventStore } from '../ports/event-store.js';
import type { FederationServices } from '../ports/federation.js';
import type { FederationSurfaceServices } from '../ports/federation-surface.js';
import type { LanguageModel } from '../ports/language-model.js';
import type { MailPorts } from '../ports/mail.js';
import type { PreviewTokens } from '../ports/preview-tokens.js';
import type { MediaProcessor } from '../ports/media-processor.js';
import type { OperationMetrics } from '../ports/metrics.js';
import type { OAuthClientDirectory } from '../ports/oauth-client-directory.js';
import type { PaymentsPorts } from '../ports/payments.js';
import type { ReadModels } from '../ports/read-models.js';
import type { Clock, DeviceFlowThrottles, Ids, PasswordHasher, Throttle } from '../ports/runtime.js';
import type { Signer } from '../ports/signer.js';
import type { SiteAddressPorts } from '../ports/site-addresses.js';
import type { SsoPorts } from '../ports/sso.js';
import type { SpatialReadModels } from '../ports/spatial-read-models.js';
import type { SubmissionLimiter } from '../ports/submission-limiter.js';
import type { StreamStateCache } from './stream-state-cache.js';

interface OAuthLifetimes {
  codeSeconds: number;
  accessTokenSeconds: number;
  refreshTokenSeconds: number;
  /** A refresh-token family's whole life from consent; rotation does not extend it. */
  refreshAbsoluteSeconds: number;
  deviceCodeSeconds: number;
}

/** The accounts area's ports. */
export interface AccountsPorts {
  passwords: PasswordHasher;
  /** Sign-in and password-confirmation failures, per account and per identifier. */
  throttle: Throttle;
  /** Absent where no one can claim the instance from the network (docs/operations.md#the-first-operator). */
  operatorClaim?: OperatorClaim | undefined;
}

/**
 * While an instance that listens beyond loopback has no operator, the account that becomes its operator
 * proves it can read the start's output (or the data folder) by giving the setup code printed there.
 */
export interface OperatorClaim {
  /** Whether the first account must give the setup code. */
  required(): boolean;
  /** Whether `code` is the setup code (compared in constant time). */
  matches(code: string): boolean;
  /** The first operator exists: the code is spent, and its file removed. */
  spent(): Promise<void>;
}

/** The OAuth area's ports. */
export interface OAuthPorts {
  /** OAuth clients: registered ones, and Client ID Metadata Documents (fetched, checked, cached). */
  clients: OAuthClientDirectory;
  /** Device-flow pacing and wrong-code limits, in the database so every process agrees. */
  deviceFlow: DeviceFlowThrottles;
}

/** The agent-access area's ports. */
export interface TokensPorts {
  /** Mints scoped MCP tokens; absent where no MCP endpoint is served (token issue then says so). */
  accessTokens?: AccessTokens | undefined;
}

/**
 * The site builder's ports; each part of the builder adds its own here (a DNS resolver, a media
 * processor, …), filled in infra/src/compose/compose-builder.ts.
 */
export interface BuilderPorts {
  /** Rendered versions' files and media, content-addressed under the data folder. */
  blobs: BlobStore;
  /** Custom domains: the DNS resolver, the DNS providers, where bound names must point. */
  domains: CustomDomainPorts;
  /** Signs and checks the tokens of preview URLs. */
  previews: PreviewTokens;
  /** Decides an upload's type from its bytes, checks the limits, re-encodes without metadata. */
  media: MediaProcessor;
  /** Site addresses: the hold period, the sites domain, the global registry's client. */
  addresses: SiteAddressPorts;
  /** Public form submissions per client and form (BUILDER_FORM_SUBMISSIONS_PER_MINUTE/_PER_DAY). */
  submissionLimiter: SubmissionLimiter;
}

/** The spatial area's ports (infra/src/compose/compose-spatial.ts). */
export interface SpatialPorts {
  read: SpatialReadModels;
  /**
   * Who is present in a world (travellers, docs/spatial.md#travellers): absent until presence is
   * composed, when the counts are 0.
   */
  presenceCounts?: ((worldId: string) => Promise<{ active: number; total: number }>) | undefined;
}

/** How confirmed plans run (docs/assistant.md#confirmation); defaults apply when absent. */
export interface AssistantPlanPorts {
  /** ASSISTANT_CONFIRM_TIMEOUT_MS: no step of a confirm starts after this long into the request. */
  confirmTimeoutMs: number;
  /** ASSISTANT_PLAN_TTL_SECONDS: how long a proposed plan waits for its confirmation. */
  planTtlSeconds: number;
  /** Test-only failpoint: called once a step's outcome is on the log (a crash between steps). */
  afterStepFinished?: ((planId: string, step: number) => void) | undefined;
}

/**
 * The assistant's chat (docs/assistant.md#chat): the language model a turn runs on and the limits of a
 * turn (ASSISTANT_HISTORY_MESSAGES, ASSISTANT_HISTORY_CHARS, ASSISTANT_TOOL_ITERATIONS).
 */
export interface AssistantChatPorts {
  model: LanguageModel;
  /** The thread's earlier messages sent with a turn, newest first, at most this many… */
  historyMessages: number;
  /** …and at most this many characters of them. */
  historyChars: number;
  /** Model calls in one turn (each may propose tool calls whose results the next one reads). */
  toolIterations: number;
}

/**
 * The assistant's ports (docs/assistant.md); each part of the assistant adds its own here, filled in
 * infra/src/compose/compose-assistant.ts.
 */
export interface AssistantPorts {
  /** Remote-viewer credentials (`svc_remote_viewer`): minted by single sign-on, read-only here. */
  remoteViewers: RemoteViewerCredentials;
  /**
   * The model ids the person may choose (the model endpoint's and the connected account's); null or
   * absent = not known, and any well-formed id is accepted.
   */
  offeredModels?: ((agentId: string) => Promise<readonly string[] | null>) | undefined;
  /** The connected external-assistant account's state for the status route; absent = unknown. */
  accountState?: ((agentId: string) => Promise<string | null>) | undefined;
}

/**
 * Pictures handed to the assistant (docs/assistant.md#attachments), filled in
 * infra/src/compose/compose-assistant-attachments.ts.
 */
export interface AssistantAttachmentPorts {
  /**
   * Decides the type from the bytes (PNG, JPEG, WebP, GIF), checks ASSISTANT_ATTACHMENT_MAX_BYTES/_PIXELS,
   * keeps an animation's first frame, re-encodes without metadata.
   */
  processor: MediaProcessor;
  /** Where attachments' bytes are kept: the same content-addressed store as the builder's. */
  blobs: BlobStore;
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
  /** Every area's reads from its projections. */
  read: ReadModels;
  /** Told about every finished invocation (docs/operations.md#metrics); absent, nothing is counted. */
  metrics?: OperationMetrics | undefined;
  accounts: AccountsPorts;
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
