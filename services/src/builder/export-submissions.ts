// CSV export of a form's submissions. Columns: the form's fields in force, then received_at. A cell a
// spreadsheet would run as a formula (starting with =, +, -, @, a tab or a carriage return) gets a
// leading ' (csv-stringify's escape_formulas; numbers typed as numbers keep their minus sign).
import { stringify } from 'csv-stringify/sync';
import { z } from 'zod';
import { defineBuilderOperation } from './builder-operation.js';
import { targetAgentId } from '../shared/schemas.js';
import { cursorOf, cursorSchema, formIdSchema, ownedForm, SUBMISSIONS_PAGE } from './form-views.js';

/** A file name from the form's name: lower-case a-z 0-9 and hyphens, never a path. */
const fileStem = (name: string) =>
  name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60) || 'form';

export const exportSubmissions = defineBuilderOperation({
  name: 'svc.builder.export_submissions',
  title: 'Export form submissions as CSV',
  description: `The submissions of a form of the acting agent as CSV (RFC 4180, UTF-8, newest first): one column per field of the form as it is now, then received_at. Cells starting with = + - @ (or a tab or carriage return) are prefixed with ' so a spreadsheet does not run them as formulas; checkboxes are true/false. At most ${SUBMISSIONS_PAGE.exportMax} rows per call: nextCursor, when not null, exports the rest.`,
  kind: 'query',
  scopes: ['svc.builder.read'],
  enabledFor: ['session', 'token'],
  input: z.strictObject({
    targetAgentId,
    formId: formIdSchema,
    limit: z.coerce.number().int().min(1).max(SUBMISSIONS_PAGE.exportMax).default(SUBMISSIONS_PAGE.exportMax),
    cursor: cursorSchema.optional(),
  }),
  output: z.object({
    formId: z.string(),
    filename: z.string(),
    contentType: z.literal('text/csv; charset=utf-8'),
    rows: z.number().int(),
    csv: z.string(),
    nextCursor: z.string().nullable(),
  }),
  async run(ctx, input) {
    const form = await ownedForm(ctx, input.formId);
    const rows = await ctx.services.builder.read.submissionsOf(input.formId, {
      limit: input.limit + 1,
      ...(input.cursor && { after: input.cursor }),
    });
    const page = rows.slice(0, input.limit);
    const columns = [...form.fields.map((f) => f.name), 'received_at'];
    const csv = stringify(
      page.map((s) => [...form.fields.map((f) => s.values[f.name] ?? ''), s.receivedAt]),
      {
        header: true,
        columns,
        escape_formulas: true,
        record_delimiter: 'windows',
        // With a record delimiter set, a lone \n or \r would otherwise go unquoted and split the row.
        quote_record_delimiter: true,
        cast: { boolean: (v) => (v ? 'true' : 'false') },
      },
    );
    const last = page[page.length - 1];
    return {
      formId: form.formId,
      filename: `${fileStem(form.name)}-submissions-${ctx.now.toISOString().slice(0, 10)}.csv`,
      contentType: 'text/csv; charset=utf-8' as const,
      rows: page.length,
      csv,
      nextCursor: rows.length > input.limit && last ? cursorOf(last) : null,
    };
  },
});
