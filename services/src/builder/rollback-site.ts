import { decideRollback, notFound, uuidSchema } from '@tributary/domain';
import { z } from 'zod';
import { defineOperation, type OperationContext } from '../pipeline/operation.js';
import type { SiteVersionWithManifest } from './ports/builder-read-models.js';
import { targetAgentId } from '../shared/schemas.js';
import { manifestHash } from './manifest.js';
import { commitOnSite } from './render-version.js';
import { resolveSite } from './resolve-site.js';

const versionNotFound = () => notFound('builder.version_not_found', 'no such version of this site');

/**
 * The version and its site: the named site's, or without `siteId` whichever of the owner's sites has
 * it (version ids are per site). Another owner's version is the same 404 as none.
 */
async function findVersion(
  ctx: OperationContext,
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

export const rollbackSite = defineOperation({
  name: 'svc.builder.rollback',
  title: 'Roll a site back',
  description:
    'Serve an earlier (or any other) version of the same site again, exactly as it was stored: nothing ' +
    'is rendered, no version is lost. A version of another site is not found; a suspended site cannot ' +
    'roll back.',
  kind: 'command',
  scopes: ['svc.builder.write'],
  enabledFor: ['session', 'token'],
  input: z.strictObject({
    targetAgentId,
    siteId: uuidSchema.optional().describe('the site; by default the one of yours that has this version'),
    versionId: uuidSchema.describe('the version to serve'),
  }),
  output: z.object({
    siteId: z.string(),
    versionId: z.string(),
    manifestHash: z.string(),
    /** The version served before, or null when this one was already served (nothing changed). */
    fromVersionId: z.string().nullable(),
  }),
  async run(ctx, input) {
    const version = await findVersion(ctx, input.versionId, input.siteId);
    // The read model's manifest is what the event will sign: it must be the version's own.
    if (manifestHash(version.manifest) !== version.manifestHash)
      throw new Error(`version ${version.versionId}: its stored manifest does not match its hash`);
    const { decision } = await commitOnSite(ctx, version.siteId, (state) => ({
      events: decideRollback(
        {
          ownerAgentId: ctx.actor.agentId,
          versionId: version.versionId,
          manifestHash: version.manifestHash,
          manifest: version.manifest,
        },
        state,
      ),
    }));
    const event = decision.events[0];
    return {
      siteId: version.siteId,
      versionId: version.versionId,
      manifestHash: version.manifestHash,
      fromVersionId: event ? ((event.data as { fromVersionId: string }).fromVersionId ?? null) : null,
    };
  },
});
