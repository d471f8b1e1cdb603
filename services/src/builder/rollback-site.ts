import { decideRollback, uuidSchema } from '@tributary/domain';
import { z } from 'zod';
import { defineBuilderOperation } from './builder-operation.js';
import { findVersion } from './find-version.js';
import { targetAgentId } from '../shared/schemas.js';
import { manifestHash } from './manifest.js';
import { publicationStateOf, publicationStateOutput } from './publication-state.js';
import { commitOnSite } from './render-version.js';

export const rollbackSite = defineBuilderOperation({
  name: 'svc.builder.rollback',
  title: 'Roll a site back',
  description:
    'Serve an earlier (or any other) published version of the same site again, exactly as it was stored: ' +
    'nothing is rendered, no version is lost. The draft is left as it is: `state` says whether it now ' +
    'differs from what is served (unpublished_changes), and svc.builder.restore_version puts the ' +
    'version’s content back into the draft, so the next publish does not bring the newer draft back ' +
    'online unnoticed. A version that was only a preview is refused (builder.version_not_published); a ' +
    'version of another site is not found; a suspended site cannot roll back.',
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
    /** Where the draft now stands against what is served (unpublished_changes: restore or keep it). */
    state: publicationStateOutput,
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
    const site = await ctx.services.builder.read.site(version.siteId);
    if (!site) throw new Error('site missing from its inline projection after commit');
    return {
      siteId: version.siteId,
      versionId: version.versionId,
      manifestHash: version.manifestHash,
      fromVersionId: event ? ((event.data as { fromVersionId: string }).fromVersionId ?? null) : null,
      state: await publicationStateOf(ctx, site),
    };
  },
});
