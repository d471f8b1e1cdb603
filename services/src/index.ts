export * from './ports/index.js';
export * from './pipeline/principal.js';
export * from './pipeline/operation.js';
export * from './pipeline/services.js';
export * from './pipeline/execute.js';
export * from './pipeline/seal-events.js';
export * from './pipeline/stream-state-cache.js';
export * from './catalogue.js';
export * from './operations/initialize-instance.js';
export * from './operations/feed-read.js';
export * from './operations/schemas.js';
export { signUp, signUpAnswer } from './operations/account-sign-up.js';
export { signIn } from './operations/account-sign-in.js';
export { signOut } from './operations/account-sign-out.js';
export type { NewSession } from './operations/session-token.js';
export * from './pipeline/tool-access.js';
export * from './pipeline/provenance.js';
export * from './tool-listing.js';
export {
  issueToken,
  TOKEN_DEFAULT_LIFETIME_SECONDS,
  TOKEN_MAX_LIFETIME_SECONDS,
} from './operations/token-issue.js';
export { listTokens, tokenStatus, type TokenStatus } from './operations/tokens-list.js';
export { revokeToken } from './operations/token-revoke.js';
export { auditRecent } from './operations/audit-recent.js';
export { exportAccountData } from './operations/account-export-data.js';
export { importEvents, type ImportResult, type ImportSummary } from './operations/events-import.js';
export { exportEvents, exportQuery, type ExportPage } from './operations/events-export.js';
export { federationOf } from './federation/federation-of.js';
export { registerPeer } from './operations/peer-register.js';
export { updatePeer } from './operations/peer-update.js';
export { listPeers } from './operations/peers-list.js';
export {
  registerOAuthClient,
  checkRedirectUri,
  isLoopbackHost,
  OAUTH_GRANT_TYPES,
} from './operations/oauth-client-register.js';
export {
  checkClientIdUrl,
  clientFromMetadataDocument,
  isClientIdUrl,
} from './operations/oauth-client-metadata-document.js';
export { authorizeOAuthClient } from './operations/oauth-authorize.js';
export { exchangeOAuthCode } from './operations/oauth-token-code.js';
export { refreshOAuthToken } from './operations/oauth-token-refresh.js';
export {
  redirectMatches,
  OAUTH_ACCESS_TOKEN_SECONDS,
  OAUTH_CODE_SECONDS,
  OAUTH_REFRESH_TOKEN_SECONDS,
  OAUTH_REFRESH_ABSOLUTE_SECONDS,
} from './operations/oauth-grant-shared.js';
export {
  requestDeviceCode,
  normalizeUserCode,
  DEVICE_CODE_SECONDS,
} from './operations/oauth-device-request.js';
export { decideDeviceCode } from './operations/oauth-device-decide.js';
export { redeemDeviceCode } from './operations/oauth-device-token.js';
export { revokeOAuthGrant, revokeOAuthTokenByValue } from './operations/oauth-grant-revoke.js';
export { federationSurfaceOf } from './federation/federation-surface-of.js';
export { checkRequestedScopes, clientScopeBound, scopeList } from './operations/oauth-scopes.js';
export {
  issueInstanceManifest,
  issueUniversalManifest,
  unsignedInstanceManifest,
  unsignedUniversalManifest,
  signInstanceManifest,
  signUniversalManifest,
  manifestEndpoints,
  MANIFEST_TYPE,
  type ManifestFacts,
} from './operations/federation-manifest.js';
export {
  federationQuery,
  parseFederationQuery,
  runFederationQuery,
  QUERY_DEFAULT_LIMIT,
  type QueryPage,
} from './operations/federation-query.js';
export {
  entityStatusRequest,
  parseEntityStatusRequest,
  probeEntityStatus,
  ENTITY_STATUSES,
} from './operations/entity-status.js';
export {
  discoverIdentity,
  parseDiscoverQuery,
  classifyCue,
  discoverQuery,
} from './operations/identity-discover.js';
export {
  applyPeerMutation,
  mutationEnvelopeSchema,
  PEER_MUTATION_OPERATIONS,
  type MutationEnvelope,
} from './operations/peer-mutation-apply.js';
export { syncPeer, type SyncSettings } from './federation/sync-peer.js';
export { createPagePrefetch, PREFETCH_MAX_AGE_MS, type PagePrefetch } from './federation/page-prefetch.js';
export { federationStatus, federationStatusOutput } from './operations/federation-status.js';
export { EQUIVOCATIONS_MAX_LIMIT, federationEquivocations } from './operations/federation-equivocations.js';
