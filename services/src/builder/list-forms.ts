import { z } from 'zod';
import { defineBuilderOperation } from './builder-operation.js';
import { targetAgentId } from '../shared/schemas.js';
import { formOutput } from './form-views.js';

export const listForms = defineBuilderOperation({
  name: 'svc.builder.list_forms',
  title: 'List forms',
  description:
    'Every form the acting agent holds, oldest first, with its fields, success message, how many submissions it keeps and how many are unread (in all and by the site they came through).',
  kind: 'query',
  scopes: ['svc.builder.read'],
  enabledFor: ['session', 'token'],
  input: z.strictObject({ targetAgentId }),
  output: z.object({ forms: z.array(formOutput) }),
  async run(ctx) {
    const forms = await ctx.services.builder.read.formsOf(ctx.actor.agentId);
    return { forms: forms.map((f) => formOutput.parse(f)) };
  },
});
