import { accountsProjection, sessionsProjection } from './accounts/index.js';
import { mcpTokensProjection, provenanceProjection } from './tokens/index.js';
import { agentsProjection } from './agents/index.js';
import { eventCountsProjection } from './instance/index.js';
import { instanceProjection } from './instance/index.js';
import { peersProjection } from './federation/index.js';
import { oauthProjection } from './oauth/index.js';
import { peerMutationsProjection } from './federation/index.js';
import type { Projection } from './shared/projection.js';

export * from './shared/projection.js';
export * from './read-models.js';
export * from './federation/federation-read-models.js';
export * from './tokens/tokens-read-models.js';
export * from './oauth/oauth-read-models.js';
export * from './federation/federation-surface-read-models.js';
export {
  instanceProjection,
  agentsProjection,
  accountsProjection,
  sessionsProjection,
  eventCountsProjection,
  mcpTokensProjection,
  provenanceProjection,
  peersProjection,
  oauthProjection,
  peerMutationsProjection,
};

/** Every projection, in the order a rebuild applies them. */
export const allProjections: Projection[] = [
  instanceProjection,
  agentsProjection,
  accountsProjection,
  sessionsProjection,
  mcpTokensProjection,
  provenanceProjection,
  oauthProjection,
  peersProjection,
  peerMutationsProjection,
  eventCountsProjection,
];
