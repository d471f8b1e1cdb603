import { uuidSchema } from '@tributary/domain';
import { z } from 'zod';
import { defineBuilderOperation } from './builder-operation.js';
import { siteForRead } from './resolve-site.js';
import { siteIdInput, VERSIONS_DEFAULT_LIMIT, VERSIONS_MAX_LIMIT } from './schemas.js';
import { targetAgentId } from '../shared/schemas.js';

const historyOutput = z.object({
  siteId: z.string(),
  entries: z.array(
    z.object({
      at: z.string(),
      /** The agent who did it (for a suspension and its lifting, the operator). */
      by: z.string(),
      /** An already published version put online again (back or forward). */
      rollback: z.boolean(),
      /** A published version's content put back into the draft; what is online did not change. */
      restore: z.boolean(),
      /** An operator suspended the site (or gave its suspension a new reason): it is offline. */
      suspended: z.boolean(),
      /** An operator lifted the suspension: the site serves what was online again. */
      unsuspended: z.boolean(),
      /** A suspension's reason, as the operator gave it (the owner's to read); null for every other entry. */
      reason: z.string().nullable(),
      /** The version put online (or into the draft, for a restore); null for a suspension and its lifting. */
      versionId: z.string().nullable(),
      /** When that version was first published; null when there is no version. */
      versionPublishedAt: z.string().nullable(),
      /** The version online until then; null for the site's first publish, a restore and a suspension. */
      replacedVersionId: z.string().nullable(),
      replacedVersionPublishedAt: z.string().nullable(),
    }),
  ),
  /** Pass as `before` for the next page; null on the last one. */
  nextBefore: z.number().int().nullable(),
});

// What was live when (docs/builder.md#history). As list_versions, only ids, times and booleans — what
// happened is told by `rollback`, `restore`, `suspended` and `unsuspended`, not by a word — so the
// assistant can read it and propose "put back what was online on Tuesday" in the same turn
// (docs/assistant.md#untrusted-content). The one text is a suspension's reason, which an operator wrote: a
// page that holds one is outside content, as it should be.
export const listHistory = defineBuilderOperation({
  name: 'svc.builder.list_history',
  title: 'List what a site had online when',
  description:
    'The history of a site (default: your default site), newest first, a page at a time (pass `nextBefore` ' +
    'as `before` for the next page; null on the last): every publish, rollback and restore into the draft, ' +
    'and every suspension of the site by an operator and its lifting, with when and the agent who did it; ' +
    'for a publish, rollback or restore, the version it concerned (and when that version was first ' +
    'published) and, for a publish or a rollback, the version it replaced online. `rollback`: it put an ' +
    'already published version online again (back or forward); `restore`: it put a published version’s ' +
    'content into the draft, leaving what is online as it was; `suspended`: an operator took the site ' +
    'offline (or changed the reason), with the `reason` the owner is shown; `unsuspended`: an operator ' +
    'lifted the suspension and the site is back online; none of them: a publish of the draft. `restoresOf`: ' +
    'only the restores of that version into the draft. Previews are ' +
    'never in it. Only ids, times and booleans, but for a suspension’s reason.',
  kind: 'query',
  scopes: ['svc.builder.read'],
  enabledFor: ['session', 'token'],
  input: z.strictObject({
    targetAgentId,
    siteId: siteIdInput,
    limit: z.coerce.number().int().min(1).max(VERSIONS_MAX_LIMIT).default(VERSIONS_DEFAULT_LIMIT),
    before: z.coerce.number().int().min(1).optional().describe('the nextBefore the previous page answered'),
    restoresOf: uuidSchema
      .optional()
      .describe('only the restores of this version into the draft (the latest first), however far back'),
  }),
  output: historyOutput,
  async run(ctx, input) {
    const { site, created } = await siteForRead(ctx, input.siteId);
    if (!created) return { siteId: site.siteId, entries: [], nextBefore: null };
    // One more than asked tells whether another page follows.
    const page = await ctx.services.builder.read.historyOf(site.siteId, {
      limit: input.limit + 1,
      before: input.before,
      restoresOf: input.restoresOf,
    });
    const shown = page.slice(0, input.limit);
    return {
      siteId: site.siteId,
      entries: shown.map((h) => ({
        at: h.at,
        by: h.actorId,
        rollback: h.action === 'rolled_back',
        restore: h.action === 'restored',
        suspended: h.action === 'suspended',
        unsuspended: h.action === 'unsuspended',
        reason: h.action === 'suspended' ? h.reason : null,
        versionId: h.versionId,
        // Only versions that went live are in the history, so the versions table has their time.
        versionPublishedAt: h.versionId === null ? null : (h.versionPublishedAt ?? h.at),
        replacedVersionId: h.replacedVersionId,
        replacedVersionPublishedAt: h.replacedVersionId ? h.replacedVersionPublishedAt : null,
      })),
      nextBefore: page.length > input.limit ? shown[shown.length - 1]!.seq : null,
    };
  },
});

/** One entry of list_history's answer, as the publish page shows it. */
export type SiteHistoryEntry = z.infer<typeof historyOutput>['entries'][number];
