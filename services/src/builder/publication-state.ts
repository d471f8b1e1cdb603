// Where a site's draft stands against what it serves (docs/builder.md#versions), as the editor shows it:
// `never_published`, `live` (publishing now would change nothing) or `unpublished_changes`. Decided by
// rendering the draft with the site's current settings and comparing the manifest hash with the served
// version's, so a changed title, a restored version and a rollback are all told right; nothing is stored.
import { isDomainError } from '@tributary/domain';
import { z } from 'zod';
import type { BuilderOperationContext } from './builder-operation.js';
import type { SiteView } from './ports/builder-read-models.js';
import { renderDraft } from './render-version.js';

export const PUBLICATION_STATES = ['never_published', 'live', 'unpublished_changes'] as const;
export type PublicationState = (typeof PUBLICATION_STATES)[number];
export const publicationStateOutput = z
  .enum(PUBLICATION_STATES)
  .describe('never_published; live: the draft is what the site serves; unpublished_changes: it differs');

export async function publicationStateOf(
  ctx: BuilderOperationContext,
  site: SiteView,
): Promise<PublicationState> {
  if (site.publishedVersionId === null) return 'never_published';
  const served = await ctx.services.builder.read.version(site.siteId, site.publishedVersionId);
  try {
    const rendered = await renderDraft(ctx, site);
    return served && rendered.manifestHash === served.manifestHash ? 'live' : 'unpublished_changes';
  } catch (e) {
    // A draft that cannot be rendered now (a picture deleted since) is not what the site serves.
    if (isDomainError(e)) return 'unpublished_changes';
    throw e;
  }
}
