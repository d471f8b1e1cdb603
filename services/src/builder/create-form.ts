import { decideCreateForm, formDefinitionSchema, formStream, type FormState } from '@tributary/domain';
import { z } from 'zod';
import { defineBuilderOperation } from './builder-operation.js';
import { targetAgentId } from '../shared/schemas.js';
import { formAfterWrite, formOutput } from './form-views.js';

export const createForm = defineBuilderOperation({
  name: 'svc.builder.create_form',
  title: 'Create a form',
  description:
    'Create a form owned by the acting agent: a name, up to 30 fields (each a name of a-z 0-9 _, a label, a type — text, email, textarea, number, checkbox, select, url, tel or date — whether it is required, and its rules: min/max length, min/max value, options, placeholder) and the message a visitor sees after sending it. Put it on a page with a form block naming its formId.',
  kind: 'command',
  scopes: ['svc.builder.write'],
  enabledFor: ['session', 'token'],
  input: z.strictObject({ targetAgentId, ...formDefinitionSchema.shape }),
  output: z.object({ form: formOutput }),
  async run(ctx, input) {
    const formId = ctx.services.ids.entityId();
    const stream = formStream(formId);
    await ctx.commit([stream], (states) =>
      decideCreateForm(
        {
          formId,
          ownerAgentId: ctx.actor.agentId,
          definition: { name: input.name, fields: input.fields, successMessage: input.successMessage },
        },
        states.get(stream) as FormState,
      ),
    );
    return { form: formOutput.parse(await formAfterWrite(ctx, formId)) };
  },
});
