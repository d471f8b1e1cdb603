import { defineBuilderOperation } from './builder-operation.js';
import { stepDraft, stepDraftOutput, undoDraftInput } from './draft-steps.js';

export const undoDraft = defineBuilderOperation({
  name: 'svc.builder.undo_draft',
  title: 'Undo the last change to the draft',
  description:
    'Bring the draft back to the state before its last change, as a new draft revision (nothing in the ' +
    'history is lost: redo_draft goes forward again until the next ordinary save). Give the revision you ' +
    'are on: if the draft moved on since, nothing changes (builder.draft_stale). A draft with no earlier ' +
    'state is builder.nothing_to_undo; a picture or form deleted since is builder.unknown_reference. An ' +
    'undo that would take back a restore of a published version into the draft (bringing back the draft ' +
    'it replaced, such as changes a rollback took off the site) is refused with ' +
    'builder.undo_takes_back_restore until asked again with undoRestore: true; the answer names the ' +
    'restore a step took back or made again (`restore`) and whether the draft was and is what the site ' +
    'serves (`wasOnline`, `isOnline`).',
  kind: 'command',
  scopes: ['svc.builder.write'],
  enabledFor: ['session', 'token'],
  input: undoDraftInput,
  output: stepDraftOutput,
  run: (ctx, input) => stepDraft(ctx, input, 'undo'),
});
