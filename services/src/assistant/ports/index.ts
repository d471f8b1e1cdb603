// The assistant's ports and reads.
import type { BlobStore, MediaProcessor } from '../../builder/ports/index.js';
import type { AttachmentReadModels } from './assistant-attachment-read-models.js';
import type { AssistantThreadReadModels } from './assistant-read-models.js';
import type { AssistantVaultReadModels } from './assistant-vault-read-models.js';
import type { AssistantAccountPorts } from './assistant-account.js';
import type { LanguageModel } from './language-model.js';
import type { RemoteViewerCredentials } from './remote-viewer-credentials.js';

export * from './assistant-account.js';
export * from './assistant-attachment-read-models.js';
export * from './assistant-read-models.js';
export * from './assistant-vault-read-models.js';
export * from './language-model.js';
export * from './remote-viewer-credentials.js';

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
  read: AssistantReadModels;
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

/** The assistant's reads: threads, messages and plans; the vault document; pictures handed to it. */
export interface AssistantReadModels {
  threads: AssistantThreadReadModels;
  vault: AssistantVaultReadModels;
  attachments: AttachmentReadModels;
}

/** What the assistant area adds to the core services. */
export interface AssistantServices {
  assistant: AssistantPorts;
  /** Pictures handed to the assistant. */
  assistantAttachments: AssistantAttachmentPorts;
  /** The assistant's model and turn limits; absent, a chat answers `assistant.model_unavailable`. */
  assistantChat?: AssistantChatPorts | undefined;
  /** How confirmed plans run; absent, the defaults (docs/assistant.md#limits). */
  assistantPlans?: AssistantPlanPorts | undefined;
  /**
   * The connected external-assistant account: the provider's client and the encrypted secrets; absent
   * where the process does not compose it (then the account operations answer not configured).
   */
  assistantAccount?: AssistantAccountPorts | undefined;
}
