// A version named by id, for rollback and restore: in the named site, or without one in whichever of
// the owner's sites has it (version ids are per site).
import { notFound } from '@tributary/domain';
import type { BuilderOperationContext } from './builder-operation.js';
import type { SiteVersionWithManifest } from './ports/builder-read-models.js';
import { resolveSite } from './resolve-site.js';

const versionNotFound = () => notFound('builder.version_not_found', 'no such version of this site');

/**
 * The version and its site: the named site's, or without `siteId` whichever of the owner's sites has
 * it (version ids are per site). Another owner's version is the same 404 as none.
 */
export async function findVersion(
  ctx: BuilderOperationContext,
  versionId: string,
  siteId: string | undefined,
): Promise<SiteVersionWithManifest> {
  const read = ctx.services.builder.read;
  const sites =
    siteId !== undefined ? [await resolveSite(ctx, siteId)] : await read.sitesOf(ctx.actor.agentId);
  for (const site of sites) {
    const version = await read.version(site.siteId, versionId);
    if (version) return version;
  }
  throw versionNotFound();
}
