import { z } from 'zod';
import { defineBuilderOperation } from './builder-operation.js';
import { targetAgentId } from '../shared/schemas.js';
import { siteForRead } from './resolve-site.js';
import { draftOutput, siteIdInput } from './schemas.js';

export const readDraft = defineBuilderOperation({
  name: 'svc.builder.read_draft',
  title: 'Read the draft',
  description:
    "A site's draft: the structured document (pages of typed blocks, navigation, footer) and its revision, which save_draft must be given back.",
  kind: 'query',
  scopes: ['svc.builder.read'],
  enabledFor: ['session', 'token'],
  input: z.strictObject({ targetAgentId, siteId: siteIdInput }),
  output: draftOutput,
  async run(ctx, input) {
    const found = await siteForRead(ctx, input.siteId);
    const draft = found.draft ?? (await ctx.services.builder.read.draft(found.site.siteId));
    if (!draft) throw new Error('a site without its draft in the read model');
    return draft;
  },
});
