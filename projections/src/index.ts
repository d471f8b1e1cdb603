import { accountsProjection, sessionsProjection } from './accounts-projection.js';
import { agentsProjection } from './agents-projection.js';
import { eventCountsProjection } from './event-counts-projection.js';
import { instanceProjection } from './instance-projection.js';
import type { Projection } from './projection.js';

export * from './projection.js';
export * from './read-models.js';
export {
  instanceProjection,
  agentsProjection,
  accountsProjection,
  sessionsProjection,
  eventCountsProjection,
};

/** Every projection, in the order a rebuild applies them. */
export const allProjections: Projection[] = [
  instanceProjection,
  agentsProjection,
  accountsProjection,
  sessionsProjection,
  eventCountsProjection,
];
