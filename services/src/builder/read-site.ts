import { z } from 'zod';
import { defineOperation } from '../pipeline/operation.js';
import { targetAgentId } from '../shared/schemas.js';
import { siteForRead } from './resolve-site.js';
import { addressOutput, siteAddressOutput } from './site-address-support.js';
import {
  siteIdInput,
  siteOutput,
  versionOutput,
  VERSIONS_DEFAULT_LIMIT,
  VERSIONS_MAX_LIMIT,
} from './schemas.js';

export const readSite = defineOperation({
  name: 'svc.builder.read_site',
  title: 'Read a site',
  description:
    'A site with its settings, its address (null until one is claimed), its publication (the version it serves) and its versions, newest first, a page at a time.',
  kind: 'query',
  scopes: ['svc.builder.read'],
  enabledFor: ['session', 'token'],
  input: z.strictObject({
    targetAgentId,
    siteId: siteIdInput,
    limit: z.coerce.number().int().min(1).max(VERSIONS_MAX_LIMIT).default(VERSIONS_DEFAULT_LIMIT),
    before: z.string().max(100).optional().describe('the versionId the previous page ended with'),
  }),
  output: z.object({
    site: siteOutput,
    /** The free address the site holds (docs/builder.md#addresses), or null. */
    address: siteAddressOutput.nullable(),
    publication: z
      .object({ versionId: z.string(), manifestHash: z.string(), publishedAt: z.string() })
      .nullable(),
    versions: z.array(versionOutput),
    /** Pass as `before` for the next page; null on the last one. */
    nextBefore: z.string().nullable(),
  }),
  async run(ctx, input) {
    const { site, created } = await siteForRead(ctx, input.siteId);
    if (!created) return { site, address: null, publication: null, versions: [], nextBefore: null };
    const read = ctx.services.builder.read;
    // One more than asked tells whether another page follows.
    const page = await read.versionsOf(site.siteId, { limit: input.limit + 1, before: input.before });
    const versions = page.slice(0, input.limit).map(({ siteId: _s, ...v }) => v);
    const address = await read.addressOfSite(site.siteId);
    const published = site.publishedVersionId
      ? await read.version(site.siteId, site.publishedVersionId)
      : null;
    return {
      site,
      address: address ? addressOutput(ctx, address) : null,
      publication:
        published && site.publishedAt
          ? {
              versionId: published.versionId,
              manifestHash: published.manifestHash,
              publishedAt: site.publishedAt,
            }
          : null,
      versions,
      nextBefore: page.length > input.limit ? versions[versions.length - 1]!.versionId : null,
    };
  },
});
