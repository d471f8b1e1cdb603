// A form's definition: its name, its fields (each with a type and the rules a submitted value must
// meet) and the message a visitor sees after sending it. Forms are owned by an agent, not by a site: a
// form block of a draft names one by id (draft-document.ts), and a published site accepts submissions
// for the forms its published version holds (docs/builder.md#forms-and-submissions).
import { z } from 'zod';

/** Limits of one form and of one submission, stated in docs/builder.md. */
export const FORM_LIMITS = {
  fields: 30,
  nameChars: 100,
  fieldNameChars: 40,
  labelChars: 200,
  placeholderChars: 200,
  options: 50,
  optionChars: 200,
  successMessageChars: 1000,
  /** A whole submission (every name and value, UTF-8), whatever the form allows per field. */
  submissionBytes: 32 * 1024,
} as const;

export const FORM_FIELD_TYPES = [
  'text',
  'email',
  'textarea',
  'number',
  'checkbox',
  'select',
  'url',
  'tel',
  'date',
] as const;
export type FormFieldType = (typeof FORM_FIELD_TYPES)[number];

/** The most characters a value of each text-like type may have, and its length when a field states none. */
export const TEXT_FIELD_MAX_CHARS = {
  text: 1000,
  email: 254,
  textarea: 10_000,
  url: 2000,
  tel: 40,
} as const;
type TextFieldType = keyof typeof TEXT_FIELD_MAX_CHARS;

/**
 * Names a form field may not take: the honeypot the renderer adds to every form, and the CSV export's
 * own column.
 */
export const RESERVED_FIELD_NAMES = ['website', 'received_at'] as const;
export const HONEYPOT_FIELD = 'website';

/** Starts with a letter: never `__proto__` or a number, so it is a safe key, HTML name and CSV header. */
export const FIELD_NAME = /^[a-z][a-z0-9_]*$/;
// eslint-disable-next-line no-control-regex
const NO_CONTROLS = /^[^\u0000-\u001f\u007f]*$/;
const plainText = (max: number) =>
  z.string().trim().min(1).max(max).regex(NO_CONTROLS, 'no control characters');

/** A calendar date as an HTML date input sends it: YYYY-MM-DD, a day that exists. */
export const isIsoDate = (value: string): boolean => {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
};
const isoDate = z.string().refine(isIsoDate, { message: 'a date as YYYY-MM-DD' });

const fieldBase = {
  name: z
    .string()
    .min(1)
    .max(FORM_LIMITS.fieldNameChars)
    .regex(FIELD_NAME, 'a field name is a-z, 0-9 and _, starting with a letter')
    .refine((n) => !(RESERVED_FIELD_NAMES as readonly string[]).includes(n), {
      message: `reserved names: ${RESERVED_FIELD_NAMES.join(', ')}`,
    }),
  label: plainText(FORM_LIMITS.labelChars),
  required: z.boolean().default(false),
};
const placeholder = plainText(FORM_LIMITS.placeholderChars).optional();

const textField = <T extends TextFieldType>(type: T) =>
  z
    .strictObject({
      type: z.literal(type),
      ...fieldBase,
      placeholder,
      minLength: z.number().int().min(0).max(TEXT_FIELD_MAX_CHARS[type]).optional(),
      maxLength: z.number().int().min(1).max(TEXT_FIELD_MAX_CHARS[type]).optional(),
    })
    .refine((f) => f.minLength === undefined || f.maxLength === undefined || f.minLength <= f.maxLength, {
      message: 'minLength is at most maxLength',
      path: ['minLength'],
    });

const numberField = z
  .strictObject({
    type: z.literal('number'),
    ...fieldBase,
    placeholder,
    min: z.number().finite().optional(),
    max: z.number().finite().optional(),
  })
  .refine((f) => f.min === undefined || f.max === undefined || f.min <= f.max, {
    message: 'min is at most max',
    path: ['min'],
  });

const dateField = z
  .strictObject({ type: z.literal('date'), ...fieldBase, min: isoDate.optional(), max: isoDate.optional() })
  .refine((f) => f.min === undefined || f.max === undefined || f.min <= f.max, {
    message: 'min is on or before max',
    path: ['min'],
  });

/** Checked or not; a required checkbox must be checked (a consent box). */
const checkboxField = z.strictObject({ type: z.literal('checkbox'), ...fieldBase });

const selectField = z
  .strictObject({
    type: z.literal('select'),
    ...fieldBase,
    options: z.array(plainText(FORM_LIMITS.optionChars)).min(1).max(FORM_LIMITS.options),
  })
  .refine((f) => new Set(f.options).size === f.options.length, {
    message: 'options are distinct',
    path: ['options'],
  });

export const formFieldSchema = z.discriminatedUnion('type', [
  textField('text'),
  textField('email'),
  textField('textarea'),
  numberField,
  checkboxField,
  selectField,
  textField('url'),
  textField('tel'),
  dateField,
]);
export type FormField = z.infer<typeof formFieldSchema>;

export const formFieldsSchema = z
  .array(formFieldSchema)
  .min(1)
  .max(FORM_LIMITS.fields)
  .superRefine((fields, ctx) => {
    const seen = new Set<string>();
    fields.forEach((f, i) => {
      if (seen.has(f.name))
        ctx.addIssue({ code: 'custom', path: [i, 'name'], message: `duplicate field name ${f.name}` });
      seen.add(f.name);
    });
  });

export const formNameSchema = plainText(FORM_LIMITS.nameChars);
export const successMessageSchema = plainText(FORM_LIMITS.successMessageChars);
export const DEFAULT_SUCCESS_MESSAGE = 'Thank you, your message was sent.';

export const formDefinitionSchema = z.strictObject({
  name: formNameSchema,
  fields: formFieldsSchema,
  successMessage: successMessageSchema.default(DEFAULT_SUCCESS_MESSAGE),
});
export type FormDefinition = z.infer<typeof formDefinitionSchema>;
