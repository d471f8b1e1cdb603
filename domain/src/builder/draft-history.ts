// Undo and redo of a draft (docs/builder.md#undo). The draft's revisions are its history: an undo or
// redo never rewrites it, it saves the document of an earlier revision as a new one, recording where the
// states before and after it are (`undoTo`, `redoTo`), so undo, undo, redo walks back and forth and an
// ordinary save after an undo drops what could be redone, as in any editor.
import type { NewEvent } from '../shared/envelope.js';
import { conflict } from '../shared/errors.js';
import type { DraftDocument } from './draft-document.js';
import { siteDraftStream } from './site-streams.js';
import { draftStale, requireOwnSite, type DraftState, type SiteState } from './site.js';

export type DraftStep = 'undo' | 'redo';

export interface StepDraft {
  ownerAgentId: string;
  step: DraftStep;
  /** The draft revision the editor is on: another is builder.draft_stale. */
  revision: number;
  /** The revision whose document comes back, as services read it (the head's `undoTo` or `redoTo`). */
  target: number;
  /** That revision's own links and document (read from the draft's history by services). */
  targetLinks: { undoTo: number | null; redoTo: number | null };
  document: DraftDocument;
}

/** Where a step would go from the draft as it is: a revision, or a refusal when there is none. */
export function stepTarget(step: DraftStep, draft: DraftState): number {
  const to = step === 'undo' ? draft.undoTo : draft.redoTo;
  if (to === null)
    throw step === 'undo'
      ? conflict('builder.nothing_to_undo', 'there is nothing to undo in this draft')
      : conflict('builder.nothing_to_redo', 'there is nothing to redo in this draft');
  return to;
}

export function decideStepDraft(cmd: StepDraft, state: { site: SiteState; draft: DraftState }): NewEvent[] {
  const { site, draft } = state;
  requireOwnSite(site, cmd.ownerAgentId);
  if (cmd.revision !== draft.revision) throw draftStale(draft.revision);
  // The head moved between the services' read and this decision: the same answer as a stale revision.
  if (stepTarget(cmd.step, draft) !== cmd.target) throw draftStale(draft.revision);
  return [
    {
      stream: siteDraftStream(site.siteId),
      type: 'site.draft_saved',
      data: {
        siteId: site.siteId,
        document: cmd.document,
        step: cmd.step,
        // Undo: before the state it brings back is what was before that state; after it, the state left.
        // Redo: the state it brings back keeps both of its links.
        undoTo: cmd.targetLinks.undoTo,
        redoTo: cmd.step === 'undo' ? draft.revision : cmd.targetLinks.redoTo,
      },
    },
  ];
}
