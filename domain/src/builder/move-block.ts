// Moving one block of a page to another place on the same page: the catalogue's move_block, the editor's
// drag and drop and its keyboard moves. Pure: the draft in, the draft out, or a refusal naming what is
// wrong, so nothing is saved from a move that does not fit the draft as it is now.
import { domainError, invalid, notFound } from '../shared/errors.js';
import type { DraftDocument } from './draft-document.js';
import { draftStale, requireOwnSite, type DraftState, type SiteState } from './site.js';
import { siteDraftStream } from './site-streams.js';
import type { NewEvent } from '../shared/envelope.js';

export interface MoveBlock {
  /** The page's path (`/`, `/menu`). */
  page: string;
  /** The block's position on the page now, from 0. */
  from: number;
  /** Its position once moved, from 0 (counted in the page's blocks as they will be). */
  to: number;
}

/** The draft with the block moved; the same draft (by value) when `from` equals `to`. */
export function moveBlock(doc: DraftDocument, move: MoveBlock): DraftDocument {
  const pageIndex = doc.pages.findIndex((p) => p.path === move.page);
  if (pageIndex < 0)
    throw notFound('builder.page_not_found', `the draft has no page at ${move.page}`, { path: move.page });
  const blocks = doc.pages[pageIndex]!.blocks;
  if (move.from < 0 || move.from >= blocks.length)
    throw notFound('builder.block_not_found', `the page has no block at position ${move.from}`, {
      from: move.from,
      blocks: blocks.length,
    });
  if (move.to < 0 || move.to >= blocks.length)
    throw invalid('builder.block_position_invalid', `position ${move.to} is not on this page`, {
      to: move.to,
      blocks: blocks.length,
    });
  const next = [...blocks];
  const [moved] = next.splice(move.from, 1);
  next.splice(move.to, 0, moved!);
  return {
    ...doc,
    pages: doc.pages.map((p, i) => (i === pageIndex ? { ...p, blocks: next } : p)),
  };
}

/**
 * A move over the revision it was asked from: a draft that moved on since is builder.draft_stale (the
 * positions the caller saw may not be the positions now). No move (from = to) saves nothing.
 */
export function decideMoveBlock(
  cmd: MoveBlock & { ownerAgentId: string; revision: number },
  state: { site: SiteState; draft: DraftState },
): NewEvent[] {
  requireOwnSite(state.site, cmd.ownerAgentId);
  if (cmd.revision !== state.draft.revision) throw draftStale(state.draft.revision);
  if (!state.draft.document)
    throw domainError('builder.site_not_found', 'not_found', 'the site has no draft');
  const document = moveBlock(state.draft.document, cmd);
  if (cmd.from === cmd.to) return [];
  return [
    {
      stream: siteDraftStream(state.site.siteId),
      type: 'site.draft_saved',
      data: { siteId: state.site.siteId, document },
    },
  ];
}
