// The site an operator's suspension names. An operator acts on someone else's site, which the
// pipeline's ownership rule would never let them act *for* (docs/architecture.md#pipeline, step 4), so
// the suspension operations do not act for an agent (actsForAgent: false): `targetAgentId` here only
// names the site's owner, to pick the owner's default site or to check that `siteId` is theirs.
import { notFound } from '@tributary/domain';
import type { SiteView } from './ports/builder-read-models.js';
import type { BuilderOperationServices } from './builder-operation.js';
import { defaultSiteId } from './resolve-site.js';

export async function operatorSite(
  services: BuilderOperationServices,
  input: { targetAgentId?: string | undefined; siteId?: string | undefined },
): Promise<SiteView> {
  const siteId = input.siteId ?? defaultSiteId(services.ids, input.targetAgentId!);
  const site = await services.builder.read.site(siteId);
  if (!site || (input.targetAgentId !== undefined && site.ownerAgentId !== input.targetAgentId))
    throw notFound('builder.site_not_found', 'no such site');
  return site;
}
