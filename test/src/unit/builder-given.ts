// What the builder's unit tests share.
import type { SiteView } from '@tributary/services';
import type { UnitAccount, UnitInstance } from './given-when-then.js';

/**
 * Given the owner's default site: made the way a first write makes it (a read only shows it), as
 * create_site under the title the read shows, the owner's name. Its id.
 */
export async function givenDefaultSite(t: UnitInstance, who: UnitAccount, targetAgentId?: string) {
  const input = targetAgentId === undefined ? {} : { targetAgentId };
  const [shown] = (await t.when<{ sites: SiteView[] }>('svc.builder.list_sites', input, who.principal)).result
    .sites;
  await t.when('svc.builder.create_site', { ...input, title: shown!.title }, who.principal);
  return shown!.siteId;
}
