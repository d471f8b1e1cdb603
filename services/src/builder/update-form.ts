import {
  decideUpdateForm,
  formFieldsSchema,
  formNameSchema,
  formStream,
  successMessageSchema,
  type FormState,
} from '@tributary/domain';
import { z } from 'zod';
import { defineBuilderOperation } from './builder-operation.js';
import { targetAgentId } from '../shared/schemas.js';
import { formAfterWrite, formIdSchema, formOutput, ownedForm } from './form-views.js';

export const updateForm = defineBuilderOperation({
  name: 'svc.builder.update_form',
  title: 'Edit a form',
  description:
    'Change parts of a form of the acting agent: its name, its fields (the whole new list) or its success message. Parts not given stay; unchanged parts write nothing. A published site takes the new fields when it is next published; submissions are checked against the fields in force.',
  kind: 'command',
  scopes: ['svc.builder.write'],
  enabledFor: ['session', 'token'],
  input: z
    .strictObject({
      targetAgentId,
      formId: formIdSchema,
      name: formNameSchema.optional(),
      fields: formFieldsSchema.optional(),
      successMessage: successMessageSchema.optional(),
    })
    .refine((v) => v.name !== undefined || v.fields !== undefined || v.successMessage !== undefined, {
      message: 'give at least one of name, fields, successMessage',
    }),
  output: z.object({ form: formOutput }),
  async run(ctx, input) {
    await ownedForm(ctx, input.formId);
    const stream = formStream(input.formId);
    await ctx.commit([stream], (states) =>
      decideUpdateForm(
        {
          ownerAgentId: ctx.actor.agentId,
          name: input.name,
          fields: input.fields,
          successMessage: input.successMessage,
        },
        states.get(stream) as FormState,
      ),
    );
    return { form: formOutput.parse(await formAfterWrite(ctx, input.formId)) };
  },
});
