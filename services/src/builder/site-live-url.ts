// Where a site is live (docs/builder.md#addresses): the public URL a visitor opens. Shared by the
// manifests (a site's pointer) and the assistant (the link after publishing).
import type { BuilderOperationContext } from './builder-operation.js';
import type { SiteView } from './ports/index.js';
import { addressUrls } from './site-address-support.js';

/** A site's public URL: a verified custom domain, else its free address; null when it is not served. */
export async function siteLiveUrl(ctx: BuilderOperationContext, site: SiteView): Promise<string | null> {
  if (!site.publishedVersionId || site.suspendedReason !== null) return null;
  const { services, instance } = ctx;
  const domain = (await services.builder.read.domainBindings({ siteId: site.siteId, limit: 10 })).find(
    (b) => b.state === 'verified',
  );
  if (domain) return `${new URL(instance.baseUrl).protocol}//${domain.domain}/`;
  const address = await services.builder.read.addressOfSite(site.siteId);
  return address ? addressUrls(ctx, address.label).url : null;
}
