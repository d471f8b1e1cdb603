// Every projection, composed from the areas' lists in the order a rebuild (and an append) applies them.
import { accountsProjections } from './accounts/projections.js';
import { assistantVaultProjections } from './assistant/vault-projections.js';
import { agentsProjections } from './agents/projections.js';
import { assistantProjections } from './assistant/projections.js';
import { assistantAttachmentProjections } from './assistant/attachment-projections.js';
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

export const allProjections: Projection[] = [
  ...instanceProjections,
  ...agentsProjections,
  ...accountsProjections,
  ...tokensProjections,
  ...oauthProjections,
  ...federationProjections,
  ...builderProjections,
  ...spatialProjections,
  ...assistantProjections,
  ...assistantVaultProjections,
  ...manifestsProjections,
  ...assistantAttachmentProjections,
  ...paymentsProjections,
  ...mailProjections,
  ...ssoProjections,
  // Counts every event type, whichever area it belongs to.
  eventCountsProjection,
];
{
  const names = new Set<string>();
  for (const p of allProjections) {
    if (names.has(p.name)) throw new Error(`duplicate projection ${p.name}`);
    // The log's columns alone cannot tell a peer's event from ours, so these must take both.
    if ((p.metadataOnly || p.foldSql) && !p.foldsImported)
      throw new Error(`${p.name}: a projection folding columns only must opt in to imported events`);
    names.add(p.name);
  }
}
