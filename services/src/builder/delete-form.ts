import { decideDeleteForm, formStream, type FormState } from '@tributary/domain';
import { z } from 'zod';
import { defineBuilderOperation } from './builder-operation.js';
import { targetAgentId } from '../shared/schemas.js';
import { formIdSchema, ownedForm } from './form-views.js';

export const deleteForm = defineBuilderOperation({
  name: 'svc.builder.delete_form',
  title: 'Delete a form',
  description:
    'Delete a form of the acting agent with its submissions: they leave every list and export, and the form takes no more submissions. Refused (builder.form_in_use) while a site serves a published version holding it: publish without it first.',
  kind: 'command',
  scopes: ['svc.builder.write'],
  enabledFor: ['session', 'token'],
  input: z.strictObject({ targetAgentId, formId: formIdSchema }),
  output: z.object({ formId: z.string(), deleted: z.literal(true) }),
  async run(ctx, input) {
    await ownedForm(ctx, input.formId);
    const publishedOn = await ctx.services.builder.read.sitesPublishingForm(input.formId);
    const stream = formStream(input.formId);
    await ctx.commit([stream], (states) =>
      decideDeleteForm({ ownerAgentId: ctx.actor.agentId, publishedOn }, states.get(stream) as FormState),
    );
    return { formId: input.formId, deleted: true as const };
  },
});
