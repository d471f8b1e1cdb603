import { defineBuilderOperation } from './builder-operation.js';
import { stepDraft, stepDraftInput, stepDraftOutput } from './draft-steps.js';

export const redoDraft = defineBuilderOperation({
  name: 'svc.builder.redo_draft',
  title: 'Redo what was undone in the draft',
  description:
    'Go forward again to the state an undo_draft left, as a new draft revision. Give the revision you are ' +
    'on: if the draft moved on since, nothing changes (builder.draft_stale). Nothing undone since the last ' +
    'ordinary save is builder.nothing_to_redo.',
  kind: 'command',
  scopes: ['svc.builder.write'],
  enabledFor: ['session', 'token'],
  input: stepDraftInput,
  output: stepDraftOutput,
  run: (ctx, input) => stepDraft(ctx, input, 'redo'),
});
