export * from './ports/index.js';
export * from './accounts/ports.js';
export * from './agents/ports.js';
export * from './manifests/ports.js';
export * from './assistant/ports/index.js';
export * from './builder/ports/index.js';
export * from './federation/ports/index.js';
export * from './mail/ports.js';
export * from './oauth/ports/index.js';
export * from './payments/ports.js';
export * from './spatial/ports.js';
export * from './sso/ports.js';
export * from './tokens/ports/index.js';
export * from './instance/ports.js';
export * from './accounts/accounts-operation.js';
export * from './admin/admin-operation.js';
export * from './agents/agents-operation.js';
export * from './assistant/assistant-operation.js';
export * from './builder/builder-operation.js';
export * from './federation/federation-operation.js';
export * from './instance/instance-operation.js';
export * from './mail/mail-operation.js';
export * from './manifests/manifests-operation.js';
export * from './oauth/oauth-operation.js';
export * from './payments/payments-operation.js';
export * from './spatial/spatial-operation.js';
export * from './sso/sso-operation.js';
export * from './tokens/tokens-operation.js';
export * from './pipeline/principal.js';
export * from './pipeline/operation.js';
export * from './pipeline/services.js';
export * from './pipeline/execute.js';
export * from './pipeline/seal-events.js';
export * from './pipeline/stream-state-cache.js';
export * from './catalogue.js';
export * from './services.js';
export * from './instance/initialize-instance.js';
export * from './instance/instance-keys.js';
export * from './instance/settings.js';
export * from './instance/rotate-key.js';
export * from './instance/revoke-key.js';
export * from './federation/read-feed.js';
export * from './shared/schemas.js';
export { signUp, signUpAnswer } from './accounts/index.js';
export { signIn } from './accounts/index.js';
export { signOut } from './accounts/index.js';
export type { NewSession } from './accounts/index.js';
export * from './pipeline/tool-access.js';
export * from './pipeline/provenance.js';
export * from './pipeline/idempotency.js';
export * from './pipeline/json-schema-of.js';
export * from './tool-listing.js';
export { issueToken, TOKEN_DEFAULT_LIFETIME_SECONDS, TOKEN_MAX_LIFETIME_SECONDS } from './tokens/index.js';
export { listTokens, tokenStatus, type TokenStatus } from './tokens/index.js';
export { revokeToken } from './tokens/index.js';
export { auditRecent } from './tokens/index.js';
export { createPersona, deletePersona, listPersonas, readMyEvents, updateProfile } from './agents/index.js';
export { exportAccountData } from './accounts/index.js';
export { disableAccount, enableAccount } from './admin/index.js';
export { importEvents, type ImportResult, type ImportSummary } from './federation/index.js';
export { exportEvents, exportQuery, heldQuery, type ExportPage } from './federation/index.js';
export { recoverOwnEvents, type RecoveryReport } from './federation/index.js';
export { federationOf } from './federation/index.js';
export { registerPeer } from './federation/index.js';
export { updatePeer } from './federation/index.js';
export { listPeers } from './federation/index.js';
export { registerOAuthClient, isLoopbackHost, OAUTH_GRANT_TYPES } from './oauth/index.js';
export { checkClientIdUrl, clientFromMetadataDocument, isClientIdUrl } from './oauth/index.js';
export { authorizeOAuthClient } from './oauth/index.js';
export { exchangeOAuthCode } from './oauth/index.js';
export { refreshOAuthToken } from './oauth/index.js';
export {
  redirectMatches,
  OAUTH_ACCESS_TOKEN_SECONDS,
  OAUTH_CODE_SECONDS,
  OAUTH_REFRESH_TOKEN_SECONDS,
  OAUTH_REFRESH_ABSOLUTE_SECONDS,
} from './oauth/index.js';
export { requestDeviceCode, normalizeUserCode } from './oauth/index.js';
export { pendingDeviceRequest, paceDevicePoll, type PendingDeviceRequest } from './oauth/index.js';
export { decideDeviceCode } from './oauth/index.js';
export { redeemDeviceCode } from './oauth/index.js';
export { revokeOAuthGrant, revokeOAuthTokenByValue } from './oauth/index.js';
export { federationSurfaceOf } from './federation/index.js';
export { checkRequestedScopes, clientScopeBound, requestedScopes } from './oauth/index.js';
export {
  issueInstanceManifest,
  issueUniversalManifest,
  unsignedInstanceManifest,
  unsignedUniversalManifest,
  signInstanceManifest,
  signUniversalManifest,
  MANIFEST_TYPE,
  type ManifestFacts,
} from './federation/index.js';
export {
  parseFederationQuery,
  runFederationQuery,
  QUERY_DEFAULT_LIMIT,
  type QueryPage,
} from './federation/index.js';
export {
  entityStatusRequest,
  parseEntityStatusRequest,
  probeEntityStatus,
  ENTITY_STATUSES,
} from './federation/index.js';
export { discoverIdentity, parseDiscoverQuery, discoverQuery } from './federation/index.js';
export {
  applyPeerMutation,
  mutationEnvelopeSchema,
  PEER_MUTATION_OPERATIONS,
  type MutationEnvelope,
} from './federation/index.js';
export { syncPeer, type SyncSettings } from './federation/index.js';
export { createPagePrefetch, PREFETCH_MAX_AGE_MS, type PagePrefetch } from './federation/index.js';
export { federationStatus, federationStatusOutput } from './federation/index.js';
export { EQUIVOCATIONS_MAX_LIMIT, federationEquivocations } from './federation/index.js';
export {
  fillDueGaps,
  originKeysFor,
  receivePeerFollowing,
  relayFilterFor,
  servedOriginManifest,
} from './federation/index.js';
export { pinOriginKey, setRelayFollowing } from './federation/index.js';
export {
  resolveSite,
  defaultSite,
  defaultSiteId,
  markdownProblem,
  listSites,
  createSite,
  readSite,
  listVersions,
  updateSite,
  readDraft,
  saveDraft,
  siteOutput,
  draftOutput,
  versionOutput,
} from './builder/index.js';
export { listSuspendedSites, suspendSite, unsuspendSite } from './builder/index.js';
export { REPAIR_WORDS, inputRepairsOutput } from './builder/index.js';
export {
  builderDomainOperations,
  bindDomain,
  unbindDomain,
  listDomains,
  checkDomain,
  recheckDomains,
  manualDnsProvider,
  isApex,
  bindableDomain,
  type RecheckOutcome,
} from './builder/index.js';
export {
  renderSite,
  renderMarkdown,
  unsafeMarkdownLinks,
  manifestOf,
  manifestHash,
  canonicalManifestText,
  lookupManifest,
  openPreview,
  previewUrl,
  PREVIEW_PREFIX,
  previewSite,
  publishSite,
  rollbackSite,
  restoreVersion,
  publicationStateOf,
  PUBLICATION_STATES,
  type PublicationState,
  versionIdOf,
  type OpenPreview,
  formActionPath,
  formHtml,
  type FormFill,
  mediaFilePath,
  pageFilePath,
  type ManifestLookup,
  type RenderInput,
  type RenderedFile,
  type RenderForm,
  type RenderFormField,
  type RenderMedia,
  type RenderSiteSettings,
  claimAddress,
  releaseAddress,
  registerAddress,
  deregisterAddress,
  recordAddressInstance,
  siteAddressOutput,
  listForms,
  createForm,
  updateForm,
  deleteForm,
  listSubmissions,
  exportSubmissions,
  deleteSubmission,
  submitForm,
  formOperations,
  renderFormOf,
  formsForRender,
} from './builder/index.js';
export {
  uploadMedia,
  listMedia,
  deleteMedia,
  readMedia,
  mediaThumbnail,
  THUMBNAIL_SIZES,
  type ThumbnailSize,
  MEDIA_MAX_BYTES_CEILING,
  base64Length,
} from './builder/index.js';
export {
  planHash,
  readAssistantSettings,
  proposePlan,
  resolvePlanStep,
  DEFAULT_PLAN_TTL_SECONDS,
  type PlanProposal,
  type ProposePlanInput,
  type ProposedStep,
  createBuiltinPlanner,
  recogniseRequest,
  BUILTIN_PLANNER_VOCABULARY,
  BUILTIN_PLANNER_MODEL,
  type BuiltinPlannerOptions,
  chat,
  chatOutput,
  assistantChatOperations,
  observeTurn,
  wrapUntrusted,
  keptOutside,
  markUntrusted,
  type ChatOutput,
  type TurnObserver,
  NOT_PLANNABLE,
  assistantOperations,
  confirmPlan,
  decideActions,
  deleteThread,
  listThreads,
  readPlan,
  readThread,
  confirmAndRun,
  DEFAULT_CONFIRM_TIMEOUT_MS,
  type ConfirmReport,
  type PlanReport,
  type StepReport,
  assistantVaultOperations,
  readSettings as readAssistantSettingsOperation,
  updateSettings as updateAssistantSettings,
  readStatus as readAssistantStatus,
  listAssistantProvenance,
  readCredential as readAssistantCredential,
  readVault,
  readVaultDocument,
  mintRemoteViewerCredential,
  revokeRemoteViewerCredential,
  remoteViewerPrincipal,
  REMOTE_VIEWER_DEFAULT_SECONDS,
  REMOTE_VIEWER_MAX_SECONDS,
  type MintRemoteViewer,
  type MintedRemoteViewer,
  accountView,
  accountStateOf,
  accountModelIds,
  assistantAccountOperations,
  assistantAccountState,
  disconnectAccount,
  listAccountModels,
  pollAccountSignIn,
  readAccount,
  SLOW_DOWN_SECONDS,
  startAccountSignIn,
  type AccountOutput,
  addAttachment,
  assistantAttachmentOperations,
  attachmentOutput,
  loadAttachmentForModel,
  ATTACHMENT_MAX_BYTES_CEILING,
  type AttachmentForModel,
  doneReply,
  type DoneReply,
  type DoneLink,
  replyNotes,
  replyNote,
  toolWords,
  type ReplyNote,
  READ_AREAS,
  READ_AREA_WORDS,
  DEFAULT_READ_AREAS,
  readAreaOf,
  type ReadArea,
} from './assistant/index.js';
export { STEP_WORDS, describeStep } from './step-words.js';
export { DONE_VERBS, doneWords } from './shared/step-words.js';
export type { StepNames, DescribeStep } from './shared/step-words.js';
export * from './spatial/index.js';
export * from './payments/index.js';
export * from './manifests/index.js';
export * from './mail/index.js';
export * from './sso/index.js';
export {
  searchUsers,
  parseUserSearch,
  userSearchQuery,
  USER_SEARCH_MAX_LIMIT,
  USER_SEARCH_PER_MINUTE,
} from './federation/index.js';
export { setDiscoverable } from './accounts/index.js';
