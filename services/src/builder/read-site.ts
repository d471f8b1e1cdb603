import { z } from 'zod';
import { defineBuilderOperation } from './builder-operation.js';
import { draftHoldsRolledBack } from './draft-lineage.js';
import { publicationStateOf, publicationStateOutput } from './publication-state.js';
import { siteForRead } from './resolve-site.js';
import { addressOutput, siteAddressOutput } from './site-address-support.js';
import { siteOutput, versionOutput, versionsPageInput } from './schemas.js';

export const readSite = defineBuilderOperation({
  name: 'svc.builder.read_site',
  title: 'Read a site',
  description:
    'A site with its settings, its address (null until one is claimed) and live URL, its publication (the version it serves), ' +
    'where its draft stands (`state`: never_published, live, unpublished_changes) and its published versions, newest first, ' +
    'a page at a time, each with when and by whom it was published and the note given then. Previews are not versions.',
  kind: 'query',
  scopes: ['svc.builder.read'],
  enabledFor: ['session', 'token'],
  input: versionsPageInput,
  output: z.object({
    site: siteOutput,
    /** The free address the site holds (docs/builder.md#addresses), or null. */
    address: siteAddressOutput.nullable(),
    /** Where the published site is seen: the address's URL once published, else null. */
    liveUrl: z.string().nullable(),
    state: publicationStateOutput,
    /**
     * True while the draft holds the changes the site's last rollback back took off it (not restored
     * since, or a restore undone): publishing the draft would put them online again.
     */
    draftHoldsRolledBack: z.boolean(),
    publication: z
      .object({
        versionId: z.string(),
        manifestHash: z.string(),
        publishedAt: z.string(),
        /** When the served version was made: older rows go back from it, newer ones forward. */
        versionCreatedAt: z.string(),
      })
      .nullable(),
    versions: z.array(versionOutput),
    /** Pass as `before` for the next page; null on the last one. */
    nextBefore: z.string().nullable(),
  }),
  async run(ctx, input) {
    const { site, created } = await siteForRead(ctx, input.siteId);
    if (!created)
      return {
        site,
        address: null,
        liveUrl: null,
        state: 'never_published' as const,
        draftHoldsRolledBack: false,
        publication: null,
        versions: [],
        nextBefore: null,
      };
    const read = ctx.services.builder.read;
    // One more than asked tells whether another page follows.
    const page = await read.versionsOf(site.siteId, {
      limit: input.limit + 1,
      before: input.before,
      publishedOnly: true,
    });
    const names = new Map<string, string | null>();
    for (const v of page)
      if (v.publishedBy && !names.has(v.publishedBy))
        names.set(v.publishedBy, (await ctx.services.agents.read.agent(v.publishedBy))?.name ?? null);
    const versions = page.slice(0, input.limit).map(({ siteId: _s, ...v }) => ({
      ...v,
      publishedAt: v.publishedAt ?? v.createdAt,
      publishedByName: v.publishedBy ? (names.get(v.publishedBy) ?? null) : null,
    }));
    const address = await read.addressOfSite(site.siteId);
    const addressOut = address ? addressOutput(ctx, address) : null;
    const published = site.publishedVersionId
      ? await read.version(site.siteId, site.publishedVersionId)
      : null;
    const state = await publicationStateOf(ctx, site);
    return {
      site,
      address: addressOut,
      liveUrl: site.publishedVersionId && addressOut ? addressOut.url : null,
      state,
      draftHoldsRolledBack: await draftHoldsRolledBack(ctx, site, state),
      publication:
        published && site.publishedAt
          ? {
              versionId: published.versionId,
              manifestHash: published.manifestHash,
              publishedAt: site.publishedAt,
              versionCreatedAt: published.createdAt,
            }
          : null,
      versions,
      nextBefore: page.length > input.limit ? versions[versions.length - 1]!.versionId : null,
    };
  },
});
