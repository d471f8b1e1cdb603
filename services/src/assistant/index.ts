// The assistant area (docs/assistant.md).
export * from './confirm-plan.js';
export * from './decide-actions.js';
export * from './delete-thread.js';
export * from './list-threads.js';
export * from './operations.js';
export * from './plan-hash.js';
export * from './propose-plan.js';
export * from './read-plan.js';
export * from './read-settings.js';
export * from './builtin-planner.js';
export * from './chat.js';
export * from './chat-operations.js';
export * from './turn-observer.js';
export { offeredTools, type OfferedTool, type ToolOffer } from './offered-tools.js';
export { wrapUntrusted, markUntrusted, keptOutside, type UntrustedText } from './untrusted.js';
export * from './read-thread.js';
export * from './run-plan.js';
export * from './vault-operations.js';
// Named for the area outside it (the instance has settings and a status too).
export { readSettings as readAssistantSettingsOperation } from './read-settings-op.js';
export { updateSettings as updateAssistantSettings } from './update-settings.js';
export { readStatus as readAssistantStatus, STATUS_PROBE_TIMEOUT_MS } from './read-status.js';
export {
  listAssistantProvenance,
  ASSISTANT_PROVENANCE_DEFAULT,
  ASSISTANT_PROVENANCE_MAX,
} from './list-provenance.js';
export { readCredential as readAssistantCredential } from './read-credential.js';
export { readVault } from './read-vault.js';
export { readVaultDocument } from './vault-document.js';
export * from './remote-viewer.js';
// The connected external-assistant account (docs/assistant.md#connected-account).
export { assistantAccountOperations } from './account-operations.js';
export { startAccountSignIn } from './start-account-sign-in.js';
export { pollAccountSignIn, SLOW_DOWN_SECONDS } from './poll-account-sign-in.js';
export { readAccount } from './read-account.js';
export { disconnectAccount } from './disconnect-account.js';
export { listAccountModels } from './list-account-models.js';
export {
  assistantAccountState,
  accountView,
  accountStateOf,
  accountModelIds,
  type AccountOutput,
} from './account-support.js';
export * from './add-attachment.js';
export * from './attachment-operations.js';
export * from './load-attachment.js';
export * from './ports/index.js';
export { doneReply, type DoneReply, type DoneLink, type LiveSite } from './done-reply.js';
export { replyNotes, replyNote, toolWords, type ReplyNote } from './reply-notes.js';
export { READ_AREAS, READ_AREA_WORDS, DEFAULT_READ_AREAS, readAreaOf, type ReadArea } from './read-areas.js';
export * from './assistant-operation.js';
