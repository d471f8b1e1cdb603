export * from './shared/projection.js';
export * from './read-models.js';
export * from './federation/federation-read-models.js';
export * from './tokens/tokens-read-models.js';
export * from './oauth/oauth-read-models.js';
export * from './federation/federation-surface-read-models.js';
export { instanceProjection, instanceProjections } from './instance/index.js';
export { agentsProjection, agentsProjections } from './agents/index.js';
export { accountsProjection, sessionsProjection, accountsProjections } from './accounts/index.js';
export { mcpTokensProjection, provenanceProjection, tokensProjections } from './tokens/index.js';
export { oauthProjection, oauthProjections } from './oauth/index.js';
export { peersProjection, peerMutationsProjection, federationProjections } from './federation/index.js';
export {
  builderSitesProjection,
  builderHistoryProjection,
  builderMediaProjection,
  builderFormsProjection,
  builderProjections,
  createBuilderReadModels,
  createFormReadModels,
} from './builder/index.js';
export {
  assistantProjection,
  assistantProjections,
  assistantVaultProjections,
  assistantVaultProjection,
  vaultDocument,
  vaultSection,
  assistantAttachmentsProjection,
  assistantAttachmentProjections,
  createAttachmentReadModels,
} from './assistant/index.js';
export { manifestPublicationsProjection, manifestsProjections } from './manifests/index.js';
export { mailRequestsProjection, mailProjections, createMailReadModels } from './mail/index.js';
export { eventCountsProjection } from './event-counts-projection.js';
export { createSsoReadModels, ssoProjection, ssoProjections } from './sso/index.js';
export { AREA_PROJECTIONS, allProjections } from './all-projections.js';
export {
  siteServingProjection,
  createSiteServingReadModels,
  SITE_SERVING_CHANNEL,
  type ServingSiteRecord,
} from './builder/index.js';
export {
  spatialProjection,
  spatialProjections,
  createSpatialReadModels,
  presenceProjection,
  createPresenceReadModels,
} from './spatial/index.js';
export { paymentsProjection, paymentsProjections, createPaymentsReadModels } from './payments/index.js';
