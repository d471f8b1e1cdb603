import {
  decideMoveBlock,
  draftStale,
  isDomainError,
  siteDraftStream,
  siteStream,
  type DraftState,
  type SiteState,
} from '@tributary/domain';
import { z } from 'zod';
import { defineBuilderOperation } from './builder-operation.js';
import { targetAgentId } from '../shared/schemas.js';
import { resolveSite } from './resolve-site.js';
import { siteIdInput } from './schemas.js';

// A move is its own operation rather than a whole save_draft: the editor's drag and drop and its keyboard
// moves send two positions, not the document, and an agent can reorder without rewriting (and perhaps
// garbling) every block. It saves a new draft revision like any edit, so undo and history see it.
export const moveBlock = defineBuilderOperation({
  name: 'svc.builder.move_block',
  title: 'Move a block on a page',
  description:
    'Move one block of a draft page to another position on the same page (positions count from 0; `to` is ' +
    'the position once moved), over the draft revision the positions were read at: a draft that moved on ' +
    'since is builder.draft_stale. No page at `page` is builder.page_not_found, no block at `from` ' +
    'builder.block_not_found, a `to` off the page builder.block_position_invalid; nothing is saved then. ' +
    'Blocks inside a columns block are moved by save_draft.',
  kind: 'command',
  scopes: ['svc.builder.write'],
  enabledFor: ['session', 'token'],
  input: z.strictObject({
    targetAgentId,
    siteId: siteIdInput,
    revision: z.number().int().min(0).describe('the draft revision the positions were read at'),
    page: z.string().min(1).max(200).default('/').describe('the page’s path, `/` by default'),
    from: z.number().int().min(0).describe('the block’s position on the page now (0 is the first)'),
    to: z.number().int().min(0).describe('its position once moved (0 is the first)'),
  }),
  output: z.object({
    siteId: z.string(),
    /** The draft's revision after the move (the same when nothing moved). */
    revision: z.number().int(),
    moved: z.boolean(),
    updatedAt: z.string(),
  }),
  async run(ctx, input) {
    const { siteId } = await resolveSite(ctx, input.siteId);
    const site = siteStream(siteId);
    const draft = siteDraftStream(siteId);
    let moved = false;
    try {
      await ctx.commit([site, draft], (states) => {
        const events = decideMoveBlock(
          {
            ownerAgentId: ctx.actor.agentId,
            revision: input.revision,
            page: input.page,
            from: input.from,
            to: input.to,
          },
          { site: states.get(site) as SiteState, draft: states.get(draft) as DraftState },
        );
        moved = events.length > 0;
        return events;
      });
    } catch (e) {
      // Another save won the append between our read and our write: the same answer as a stale read.
      if (isDomainError(e) && e.code === 'log.stream_conflict') {
        const current = await ctx.services.builder.read.draft(siteId);
        throw draftStale(current?.revision ?? input.revision + 1);
      }
      throw e;
    }
    const saved = await ctx.services.builder.read.draft(siteId);
    if (!saved) throw new Error('draft missing from its inline projection after commit');
    return { siteId, revision: saved.revision, moved, updatedAt: saved.updatedAt };
  },
});
