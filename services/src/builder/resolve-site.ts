// Which site an operation acts on: the owner is the acting agent (`targetAgentId`, already checked by
// the pipeline against what the principal controls); a `siteId` must be one of that owner's sites, and
// without one it is the owner's default site, created on demand by a write. A read never creates it: it
// is shown as it will be created (`siteForRead`). Every builder operation that takes `siteId?` resolves
// it here.
import {
  decideCreateSite,
  initialDraftState,
  initialSiteState,
  isDomainError,
  notFound,
  SITE_DEFAULTS,
  siteDraftStream,
  siteStream,
  starterDraft,
  uuidV8FromDigest,
  type StarterTemplate,
} from '@tributary/domain';
import { commitEvents } from '../pipeline/execute.js';
import type { BuilderOperationContext } from './builder-operation.js';
import type { DraftView, SiteView } from './ports/builder-read-models.js';
import type { Ids } from '../ports/runtime.js';

/**
 * The id of an owner's default site: a name-based UUID (RFC 9562 version 8, from SHA-256, as its
 * appendix B.2 shows) of the owner's agent id. Deterministic, so two first calls at once both try to
 * create the same stream and the log lets only one of them: an owner never gets two default sites.
 */
export function defaultSiteId(ids: Pick<Ids, 'sha256'>, ownerAgentId: string): string {
  return uuidV8FromDigest(ids.sha256(`tributary:builder:default-site:${ownerAgentId}`));
}

/**
 * The site `siteId` names, if the acting agent owns it; without `siteId`, the owner's default site
 * (created on demand). Another owner's site and a site that does not exist are the same 404
 * `builder.site_not_found`.
 */
export async function resolveSite(ctx: BuilderOperationContext, siteId?: string): Promise<SiteView> {
  // The default site's id is known (and shown by reads) before the site exists: naming it is asking for it.
  if (siteId === undefined || siteId === defaultSiteId(ctx.services.ids, ctx.actor.agentId))
    return defaultSite(ctx);
  const site = await ctx.services.builder.read.site(siteId);
  if (!site || site.ownerAgentId !== ctx.actor.agentId)
    throw notFound('builder.site_not_found', 'no such site among yours');
  return site;
}

/**
 * For a read: the site `siteId` names (as `resolveSite`), and without `siteId`, or naming the default
 * site, the owner's default site — when it has not been created yet, as it will be created (with its
 * starter draft), without creating it. A read the assistant may run unconfirmed must never write
 * (docs/builder.md#sites).
 */
export async function siteForRead(
  ctx: BuilderOperationContext,
  siteId?: string,
): Promise<{ site: SiteView; draft: DraftView | null; created: boolean }> {
  const defaultId = defaultSiteId(ctx.services.ids, ctx.actor.agentId);
  if (siteId !== undefined && siteId !== defaultId) {
    const site = await resolveSite(ctx, siteId);
    return { site, draft: null, created: true };
  }
  const existing = await ctx.services.builder.read.site(defaultId);
  if (existing) {
    if (existing.ownerAgentId !== ctx.actor.agentId)
      throw notFound('builder.site_not_found', 'no such site among yours');
    return { site: existing, draft: null, created: true };
  }
  return { ...prospectiveDefaultSite(ctx, defaultId), created: false };
}

/**
 * The default site and its draft as creating them would project them (builder-projection.ts): the draft
 * is the starter at revision 1, the revision save_draft is given back, which then creates the site.
 */
function prospectiveDefaultSite(
  ctx: BuilderOperationContext,
  siteId: string,
): { site: SiteView; draft: DraftView } {
  const at = ctx.now.toISOString();
  return {
    site: {
      siteId,
      ownerAgentId: ctx.actor.agentId,
      title: ctx.actor.name,
      isDefault: true,
      ...SITE_DEFAULTS,
      draftRevision: 1,
      publishedVersionId: null,
      publishedAt: null,
      suspendedReason: null,
      createdAt: at,
      updatedAt: at,
    },
    draft: { siteId, revision: 1, document: starterDraft(ctx.actor.name), updatedAt: at },
  };
}

/**
 * The acting agent's default site, created if it is not there yet (with the owner's name as its title,
 * and its starter draft). Creating it is its own small write, ahead of what the operation itself
 * commits: it is what asking for the default site means, and it is idempotent.
 */
export async function defaultSite(ctx: BuilderOperationContext): Promise<SiteView> {
  const owner = ctx.actor.agentId;
  const siteId = defaultSiteId(ctx.services.ids, owner);
  const existing = await ctx.services.builder.read.site(siteId);
  if (existing) return existing;
  await createSiteStreams(ctx, { siteId, title: ctx.actor.name, isDefault: true });
  const created = await ctx.services.builder.read.site(siteId);
  if (!created) throw new Error('default site missing from its inline projection after commit');
  return created;
}

/**
 * Appends a new site and its starter draft on their fresh streams, given as new (not read): through the
 * operation's own commit (`create_site`), or as a write of its own ahead of the operation's (the default
 * site on demand). When a concurrent call created the same site first (only possible for the default
 * site, whose id is derived) the append loses with a stream conflict, which means the site exists.
 * Returns whether this call created it.
 */
export async function createSiteStreams(
  ctx: BuilderOperationContext,
  site: { siteId: string; title: string; isDefault: boolean; template?: StarterTemplate | undefined },
  via: 'operation' | 'own' = 'own',
): Promise<boolean> {
  const sites = siteStream(site.siteId);
  const drafts = siteDraftStream(site.siteId);
  const decide = () => decideCreateSite({ ...site, ownerAgentId: ctx.actor.agentId }, initialSiteState());
  const known = new Map([
    [sites, { state: initialSiteState(), version: 0 }],
    [drafts, { state: initialDraftState(), version: 0 }],
  ]);
  try {
    if (via === 'operation') await ctx.commit([sites, drafts], decide, { known });
    else await commitEvents(ctx.services, [sites, drafts], decide, ctx.actor.agentId, undefined, known);
    return true;
  } catch (e) {
    if (isDomainError(e) && e.code === 'log.stream_conflict') return false;
    throw e;
  }
}
