import { accountsProjection, sessionsProjection } from './accounts-projection.js';
import { mcpTokensProjection, provenanceProjection } from './agent-access-projection.js';
import { agentsProjection } from './agents-projection.js';
import { eventCountsProjection } from './event-counts-projection.js';
import { instanceProjection } from './instance-projection.js';
import { peersProjection } from './peers-projection.js';
import { oauthProjection } from './oauth-projection.js';
import { peerMutationsProjection } from './peer-mutations-projection.js';
import type { Projection } from './projection.js';

export * from './projection.js';
export * from './read-models.js';
export * from './federation-read-models.js';
export * from './agent-access-read-models.js';
export * from './oauth-read-models.js';
export * from './federation-surface-read-models.js';
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
