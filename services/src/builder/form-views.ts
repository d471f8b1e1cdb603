// What the forms operations answer, and how they find a form of the acting owner.
import { formFieldSchema, notFound, uuidSchema } from '@tributary/domain';
import { z } from 'zod';
import type { BuilderOperationContext } from './builder-operation.js';
import type { FormReadModels, FormView, SubmissionPosition } from './ports/form-read-models.js';
import type { RenderForm } from './render/render-input.js';

export const formIdSchema = uuidSchema.describe('the form, as create_form or list_forms gave it');

export const formOutput = z.object({
  formId: z.string(),
  ownerAgentId: z.string(),
  name: z.string(),
  fields: z.array(formFieldSchema),
  successMessage: z.string(),
  submissionCount: z.number().int(),
  unreadCount: z
    .number()
    .int()
    .describe(
      'submissions received since the owner last looked (mark_submissions_seen); all before they first look',
    ),
  unreadBySite: z
    .array(z.object({ siteId: z.string(), count: z.number().int() }))
    .describe(
      'unreadCount by the site the submissions came through, by siteId; a site with none is left out',
    ),
  seenThrough: z.string().nullable().describe('the receivedAt of the newest submission the owner has seen'),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const submissionOutput = z.object({
  submissionId: z.string(),
  formId: z.string(),
  siteId: z.string(),
  values: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
  receivedAt: z.string(),
});

/** The acting owner's live form, or builder.form_not_found (someone else's looks the same as none). */
export async function ownedForm(ctx: BuilderOperationContext, formId: string): Promise<FormView> {
  const form = await ctx.services.builder.read.form(formId);
  if (!form || form.ownerAgentId !== ctx.actor.agentId)
    throw notFound('builder.form_not_found', 'no such form');
  return form;
}

/** The answer for a form just written: as the read model has it (inline projections are current). */
export async function formAfterWrite(ctx: BuilderOperationContext, formId: string) {
  const form = await ctx.services.builder.read.form(formId);
  if (!form) throw new Error(`form ${formId} is not in the read model after its write`);
  return form;
}

/** Submissions per page: list_submissions' default and most, export_submissions' most per call. */
export const SUBMISSIONS_PAGE = { default: 50, max: 200, exportMax: 5000 } as const;

/** An opaque position in a form's submissions (the last of a page), for the next page. */
export const cursorOf = (p: SubmissionPosition): string =>
  Buffer.from(JSON.stringify([p.receivedAt, p.submissionId])).toString('base64url');

const cursorShape = z.tuple([z.iso.datetime({ offset: true }), uuidSchema]);
export const cursorSchema = z
  .string()
  .max(200)
  .transform((raw, ctx) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
    } catch {
      parsed = undefined;
    }
    const ok = cursorShape.safeParse(parsed);
    if (!ok.success) {
      ctx.addIssue({ code: 'custom', message: 'not a cursor this list gave' });
      return z.NEVER;
    }
    return { receivedAt: ok.data[0], submissionId: ok.data[1] } satisfies SubmissionPosition;
  })
  .describe('nextCursor of the previous page');

/** A form as the renderer draws it: its fields, with the rules a browser can check before sending. */
export function renderFormOf(form: FormView): RenderForm {
  return {
    formId: form.formId,
    fields: form.fields.map((f) => ({
      name: f.name,
      label: f.label,
      type: f.type,
      required: f.required,
      ...(f.type === 'select' && { options: f.options }),
      ...('maxLength' in f && f.maxLength !== undefined && { maxLength: f.maxLength }),
    })),
  };
}

/**
 * The forms a draft names that `ownerAgentId` holds, for the renderer: one it does not hold (deleted,
 * someone else's) is left out, so rendering refuses the draft with builder.unknown_reference.
 */
export async function formsForRender(
  read: FormReadModels,
  ownerAgentId: string,
  formIds: readonly string[],
): Promise<Map<string, RenderForm>> {
  const forms = new Map<string, RenderForm>();
  for (const formId of formIds) {
    const form = await read.form(formId);
    if (form && form.ownerAgentId === ownerAgentId) forms.set(formId, renderFormOf(form));
  }
  return forms;
}

/** Which of `ids` are live forms of `ownerAgentId`: the check a draft's form blocks pass at save. */
export const formReferences = {
  kind: 'form' as const,
  async held(
    ctx: BuilderOperationContext,
    ownerAgentId: string,
    ids: readonly string[],
  ): Promise<Set<string>> {
    const held = new Set<string>();
    for (const id of ids) {
      const form = await ctx.services.builder.read.form(id);
      if (form && form.ownerAgentId === ownerAgentId) held.add(id);
    }
    return held;
  },
};
