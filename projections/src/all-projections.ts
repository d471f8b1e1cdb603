// Every projection, composed from the areas' lists in the order a rebuild (and an append) applies them.
import type { Area } from '@tributary/domain';
import { accountsProjections } from './accounts/projections.js';
import { agentsProjections } from './agents/projections.js';
import { assistantProjections } from './assistant/projections.js';
import { builderProjections } from './builder/projections.js';
import { eventCountsProjection } from './event-counts-projection.js';
import { federationProjections } from './federation/projections.js';
import { instanceProjections } from './instance/projections.js';
import { mailProjections } from './mail/projections.js';
import { manifestsProjections } from './manifests/projections.js';
import { oauthProjections } from './oauth/projections.js';
import { paymentsProjections } from './payments/projections.js';
import type { Projection } from './shared/projection.js';
import { spatialProjections } from './spatial/projections.js';
import { ssoProjections } from './sso/projections.js';
import { tokensProjections } from './tokens/projections.js';

/** Each area's projections. */
export const AREA_PROJECTIONS = {
  instance: instanceProjections,
  agents: agentsProjections,
  accounts: accountsProjections,
  tokens: tokensProjections,
  oauth: oauthProjections,
  federation: federationProjections,
  builder: builderProjections,
  spatial: spatialProjections,
  assistant: assistantProjections,
  manifests: manifestsProjections,
  payments: paymentsProjections,
  mail: mailProjections,
  sso: ssoProjections,
  // The operators' acts are folded by the instance's and the accounts' projections.
  admin: [],
} as const satisfies Record<Area, readonly Projection[]>;

export const allProjections: Projection[] = [
  ...Object.values(AREA_PROJECTIONS).flat(),
  // Counts every event type, whichever area it belongs to.
  eventCountsProjection,
];
{
  const names = new Set<string>();
  for (const p of allProjections) {
    if (names.has(p.name)) throw new Error(`duplicate projection ${p.name}`);
    names.add(p.name);
    // The log's columns alone cannot tell a peer's event from ours, so these must take both.
    if ((p.metadataOnly || p.foldSql) && !p.foldsImported)
      throw new Error(`${p.name}: a projection folding columns only must opt in to imported events`);
  }
}
