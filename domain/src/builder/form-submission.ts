// A submission checked against its form's definition, as a browser posts it: every value a string (a
// name sent twice gives a list), an unchecked checkbox absent. Pure: the values kept are typed (numbers,
// booleans for checkboxes, trimmed text) and only the form's own fields are kept; a refusal names every
// field that failed with a stable reason, so the page that answers can say what to fix.
import { emailSchema } from '../shared/ids.js';
import { isHttpUrl } from '../shared/http-url.js';
import { DomainError, invalid } from '../shared/errors.js';
import {
  FORM_LIMITS,
  TEXT_FIELD_MAX_CHARS,
  isIsoDate,
  type FormDefinition,
  type FormField,
} from './form-definition.js';

/** What a browser sends: each name once (a string) or several times (a list). */
export type RawSubmission = Readonly<Record<string, string | readonly string[]>>;
/** What is kept of a submission: the form's fields that were filled, typed. */
export type SubmissionValues = Record<string, string | number | boolean>;

/** Why one field was refused (the `reason` of each entry of `fields` in builder.submission_invalid). */
export type FieldProblem =
  | 'required'
  | 'repeated'
  | 'too_short'
  | 'too_long'
  | 'invalid_characters'
  | 'not_email'
  | 'not_url'
  | 'not_tel'
  | 'not_number'
  | 'below_min'
  | 'above_max'
  | 'not_date'
  | 'not_an_option';

export interface FieldError {
  field: string;
  reason: FieldProblem;
}

// Single-line text: no control characters at all; multi-line text keeps line breaks and tabs.
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u001f\u007f]/;
// eslint-disable-next-line no-control-regex
const CONTROLS_BUT_LINES = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
const NUMBER = /^-?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const TEL = /^\+?[0-9 ()\-.]+$/;

/** UTF-8 length, counted from code points (the domain leans on no runtime's encoder). */
const utf8Bytes = (s: string): number => {
  let n = 0;
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    n += c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
  }
  return n;
};

/** Bytes of every name and value of a submission, as UTF-8. */
export function submissionSize(raw: RawSubmission): number {
  let n = 0;
  for (const [name, value] of Object.entries(raw)) {
    const values = typeof value === 'string' ? [value] : value;
    for (const v of values) n += utf8Bytes(name) + utf8Bytes(v);
  }
  return n;
}

/**
 * The values to keep, or builder.submission_too_large (over FORM_LIMITS.submissionBytes) or
 * builder.submission_invalid with `fields`: one `{ field, reason }` per refused field, in form order.
 * Names the form does not define are ignored (a browser may send its submit button's).
 */
export function validateSubmission(definition: FormDefinition, raw: RawSubmission): SubmissionValues {
  const size = submissionSize(raw);
  if (size > FORM_LIMITS.submissionBytes)
    throw new DomainError('builder.submission_too_large', 'too_large', 'the submission is too large', {
      limitBytes: FORM_LIMITS.submissionBytes,
    });
  const values: SubmissionValues = {};
  const errors: FieldError[] = [];
  for (const field of definition.fields) {
    const given = Object.hasOwn(raw, field.name) ? raw[field.name] : undefined;
    if (given !== undefined && typeof given !== 'string') {
      errors.push({ field: field.name, reason: 'repeated' });
      continue;
    }
    const outcome = checkField(field, given);
    if (typeof outcome === 'object') errors.push({ field: field.name, reason: outcome.problem });
    else if (outcome !== undefined) values[field.name] = outcome;
  }
  if (errors.length > 0)
    throw invalid('builder.submission_invalid', 'some fields are not filled in as the form asks', {
      fields: errors,
    });
  return values;
}

type Checked = string | number | boolean | undefined | { problem: FieldProblem };

function checkField(field: FormField, given: string | undefined): Checked {
  if (field.type === 'checkbox') {
    // A browser sends a checked box (as "on" or its value) and leaves an unchecked one out.
    const checked = given !== undefined;
    return field.required && !checked ? { problem: 'required' } : checked;
  }
  const multiLine = field.type === 'textarea';
  const value = (multiLine ? (given ?? '').replace(/\r\n?/g, '\n') : (given ?? '')).trim();
  if (value === '') return field.required ? { problem: 'required' } : undefined;
  if ((multiLine ? CONTROLS_BUT_LINES : CONTROLS).test(value)) return { problem: 'invalid_characters' };
  switch (field.type) {
    case 'number': {
      if (!NUMBER.test(value) || value.length > 40) return { problem: 'not_number' };
      const n = Number(value);
      if (!Number.isFinite(n)) return { problem: 'not_number' };
      if (field.min !== undefined && n < field.min) return { problem: 'below_min' };
      if (field.max !== undefined && n > field.max) return { problem: 'above_max' };
      return n;
    }
    case 'date':
      if (!isIsoDate(value)) return { problem: 'not_date' };
      if (field.min !== undefined && value < field.min) return { problem: 'below_min' };
      if (field.max !== undefined && value > field.max) return { problem: 'above_max' };
      return value;
    case 'select':
      return field.options.includes(value) ? value : { problem: 'not_an_option' };
    default: {
      const max = field.maxLength ?? TEXT_FIELD_MAX_CHARS[field.type];
      if (value.length > max) return { problem: 'too_long' };
      if (field.minLength !== undefined && value.length < field.minLength) return { problem: 'too_short' };
      if (field.type === 'email' && !emailSchema.safeParse(value).success) return { problem: 'not_email' };
      if (field.type === 'url' && !isHttpUrl(value)) return { problem: 'not_url' };
      if (field.type === 'tel' && (!TEL.test(value) || value.replace(/\D/g, '').length < 3))
        return { problem: 'not_tel' };
      return value;
    }
  }
}
