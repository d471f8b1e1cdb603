// Where the sites a confirmation published (or rolled back) are live, for the reply's links
// (docs/assistant.md#confirmation): looked up only when a step that ran changed what a site serves.
import { siteLiveUrl } from '../builder/index.js';
import type { AssistantOperationContext } from './assistant-operation.js';
import { sitesServedAnew, type LiveSite } from './done-reply.js';

export async function liveSitesOf(
  ctx: AssistantOperationContext,
  steps: Parameters<typeof sitesServedAnew>[0],
): Promise<Map<string, LiveSite>> {
  const live = new Map<string, LiveSite>();
  for (const siteId of sitesServedAnew(steps)) {
    const site = await ctx.services.builder.read.site(siteId);
    if (site) live.set(siteId, { title: site.title, url: await siteLiveUrl(ctx, site) });
  }
  return live;
}
