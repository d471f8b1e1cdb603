import { z } from 'zod';
import { defineBuilderOperation } from './builder-operation.js';
import { siteForRead } from './resolve-site.js';
import { versionsPageInput } from './schemas.js';

// Only ids and times: nothing anyone wrote, so the assistant can read it and propose a rollback in the
// same turn without outside text entering it (docs/assistant.md#untrusted-content). Publish notes and
// the publisher's name are words: they are in svc.builder.read_site, not here. Versions are what was
// published: a preview renders a version too, but it is never listed nor a rollback target.
export const listVersions = defineBuilderOperation({
  name: 'svc.builder.list_versions',
  title: 'List a site’s versions',
  description:
    'The published versions of a site (default: your default site), newest first, a page at a time: ' +
    'when each was made and first published, the agent who published it, and which one the site ' +
    'serves now. Previews are not versions and are never listed. Only ids and times (notes are in ' +
    'svc.builder.read_site).',
  kind: 'query',
  scopes: ['svc.builder.read'],
  enabledFor: ['session', 'token'],
  input: versionsPageInput,
  output: z.object({
    siteId: z.string(),
    /** The version the site serves now; null when it was never published. */
    servedVersionId: z.string().nullable(),
    versions: z.array(
      z.object({
        versionId: z.string(),
        createdAt: z.string(),
        publishedAt: z.string(),
        /** The agent who first published it. */
        publishedBy: z.string().nullable(),
        served: z.boolean(),
      }),
    ),
    nextBefore: z.string().nullable(),
  }),
  async run(ctx, input) {
    const { site, created } = await siteForRead(ctx, input.siteId);
    const served = site.publishedVersionId ?? null;
    if (!created) return { siteId: site.siteId, servedVersionId: null, versions: [], nextBefore: null };
    const page = await ctx.services.builder.read.versionsOf(site.siteId, {
      limit: input.limit + 1,
      before: input.before,
      publishedOnly: true,
    });
    const versions = page.slice(0, input.limit).map((v) => ({
      versionId: v.versionId,
      createdAt: v.createdAt,
      // Listed only when published, so never null here.
      publishedAt: v.publishedAt ?? v.createdAt,
      publishedBy: v.publishedBy,
      served: v.versionId === served,
    }));
    return {
      siteId: site.siteId,
      servedVersionId: served,
      versions,
      nextBefore: page.length > input.limit ? versions[versions.length - 1]!.versionId : null,
    };
  },
});
