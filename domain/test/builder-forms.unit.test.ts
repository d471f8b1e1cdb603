import {
  decideCreateForm,
  decideDeleteForm,
  decideDeleteSubmission,
  decideReceiveSubmission,
  decideUpdateForm,
  fold,
  FORM_LIMITS,
  formDefinitionSchema,
  isDomainError,
  validateSubmission,
  type FormDefinition,
  type FormState,
  type StoredEventLike,
  type SubmissionState,
} from '@tributary/domain';
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { codeOf } from './support.js';

const contact: FormDefinition = formDefinitionSchema.parse({
  name: 'Contact',
  fields: [
    { type: 'text', name: 'name', label: 'Your name', required: true, maxLength: 50 },
    { type: 'email', name: 'email', label: 'Email', required: true },
    { type: 'textarea', name: 'message', label: 'Message', minLength: 5 },
    { type: 'number', name: 'guests', label: 'Guests', min: 1, max: 10 },
    { type: 'checkbox', name: 'consent', label: 'I agree', required: true },
    { type: 'checkbox', name: 'newsletter', label: 'Newsletter' },
    { type: 'select', name: 'topic', label: 'Topic', options: ['Sales', 'Support'] },
    { type: 'url', name: 'site', label: 'Your site' },
    { type: 'tel', name: 'phone', label: 'Phone' },
    { type: 'date', name: 'day', label: 'Day', min: '2026-01-01', max: '2026-12-31' },
  ],
});

const good = { name: ' Ada ', email: 'ada@example.org', consent: 'on', message: 'Hello\r\nthere' };

/** The per-field reasons of a builder.submission_invalid, or the code of another error. */
function problems(raw: Record<string, string | string[]>): unknown {
  try {
    validateSubmission(contact, raw);
  } catch (e) {
    if (isDomainError(e) && e.code === 'builder.submission_invalid') return e.details?.fields;
    if (isDomainError(e)) return e.code;
    throw e;
  }
  return 'valid';
}

describe('form definitions', () => {
  test('given a definition with every field type, then it parses with required defaulting to false', () => {
    assert.equal(contact.fields.length, 10);
    assert.equal(contact.fields[2]!.required, false);
    assert.equal(contact.successMessage, 'Thank you, your message was sent.');
  });

  const refused = (fields: unknown[], extra: Record<string, unknown> = {}) =>
    !formDefinitionSchema.safeParse({ name: 'F', fields, ...extra }).success;
  const text = (name: string, more: Record<string, unknown> = {}) => ({
    type: 'text',
    name,
    label: 'L',
    ...more,
  });

  test('given bad field names, then the definition is refused', () => {
    for (const name of [
      'Name',
      'with-dash',
      'with space',
      '',
      '__proto__',
      '1st',
      '_x',
      'a'.repeat(41),
      'website',
      'received_at',
    ])
      assert.ok(refused([text(name)]), name);
    assert.ok(refused([text('a'), text('a')]), 'duplicate names');
  });

  test('given wrong rules for a type, then the definition is refused', () => {
    assert.ok(refused([{ type: 'select', name: 's', label: 'S', options: [] }]), 'no options');
    assert.ok(refused([{ type: 'select', name: 's', label: 'S', options: ['a', 'a'] }]), 'same option twice');
    assert.ok(
      refused([{ type: 'checkbox', name: 'c', label: 'C', placeholder: 'x' }]),
      'checkbox placeholder',
    );
    assert.ok(refused([text('t', { min: 1 })]), 'a numeric bound on text');
    assert.ok(refused([text('t', { minLength: 5, maxLength: 2 })]), 'min over max');
    assert.ok(refused([text('t', { maxLength: 1001 })]), 'over the text cap');
    assert.ok(refused([{ type: 'number', name: 'n', label: 'N', min: 3, max: 1 }]), 'number min over max');
    assert.ok(refused([{ type: 'date', name: 'd', label: 'D', min: '2026-02-30' }]), 'no such day');
    assert.ok(refused([{ type: 'color', name: 'c', label: 'C' }]), 'unknown type');
    assert.ok(refused([text('t', { label: '<script>\u0000' })]), 'control characters');
    assert.ok(refused([]), 'no field');
    assert.ok(refused([...Array(FORM_LIMITS.fields + 1).keys()].map((i) => text(`f${i}`))), 'too many');
    assert.ok(refused([text('t')], { successMessage: 'x'.repeat(1001) }), 'message too long');
    assert.ok(!refused([...Array(FORM_LIMITS.fields).keys()].map((i) => text(`f${i}`))), 'the limit itself');
  });
});

describe('validating a submission', () => {
  test('given a good submission, then only the form fields are kept, typed and trimmed', () => {
    const values = validateSubmission(contact, {
      ...good,
      guests: '3',
      topic: 'Support',
      site: 'https://ada.example/',
      phone: '+44 (0)20 7946-0000',
      day: '2026-06-01',
      submit: 'Send',
    });
    assert.deepEqual(values, {
      name: 'Ada',
      email: 'ada@example.org',
      message: 'Hello\nthere',
      guests: 3,
      consent: true,
      newsletter: false,
      topic: 'Support',
      site: 'https://ada.example/',
      phone: '+44 (0)20 7946-0000',
      day: '2026-06-01',
    });
  });

  test('given missing required fields, then each is named as required', () => {
    assert.deepEqual(problems({ name: '  ' }), [
      { field: 'name', reason: 'required' },
      { field: 'email', reason: 'required' },
      { field: 'consent', reason: 'required' },
    ]);
  });

  test('given values breaking each rule, then each field is named with its reason', () => {
    assert.deepEqual(
      problems({
        name: 'x'.repeat(51),
        email: 'not-an-email',
        message: 'hi',
        guests: '11',
        consent: 'on',
        topic: 'Other',
        site: 'javascript:alert(1)',
        phone: 'call me',
        day: '2025-12-31',
      }),
      [
        { field: 'name', reason: 'too_long' },
        { field: 'email', reason: 'not_email' },
        { field: 'message', reason: 'too_short' },
        { field: 'guests', reason: 'above_max' },
        { field: 'topic', reason: 'not_an_option' },
        { field: 'site', reason: 'not_url' },
        { field: 'phone', reason: 'not_tel' },
        { field: 'day', reason: 'below_min' },
      ],
    );
  });

  test('given odd values, then numbers, dates, URLs and control characters are refused as such', () => {
    const one = (extra: Record<string, string | string[]>) => problems({ ...good, ...extra });
    assert.deepEqual(one({ guests: '0x10' }), [{ field: 'guests', reason: 'not_number' }]);
    assert.deepEqual(one({ guests: 'Infinity' }), [{ field: 'guests', reason: 'not_number' }]);
    assert.deepEqual(one({ guests: '0' }), [{ field: 'guests', reason: 'below_min' }]);
    assert.deepEqual(one({ day: '2026-02-30' }), [{ field: 'day', reason: 'not_date' }]);
    assert.deepEqual(one({ day: '2027-01-01' }), [{ field: 'day', reason: 'above_max' }]);
    assert.deepEqual(one({ site: 'ftp://files.example/' }), [{ field: 'site', reason: 'not_url' }]);
    assert.deepEqual(one({ site: 'https://user:pw@bank.example/' }), [{ field: 'site', reason: 'not_url' }]);
    assert.deepEqual(one({ name: 'Ada\nLovelace' }), [{ field: 'name', reason: 'invalid_characters' }]);
    assert.deepEqual(one({ message: 'bell\u0007 rings' }), [
      { field: 'message', reason: 'invalid_characters' },
    ]);
    assert.deepEqual(one({ email: ['a@example.org', 'b@example.org'] }), [
      { field: 'email', reason: 'repeated' },
    ]);
  });

  test('given a submission over the size limit, then builder.submission_too_large whatever the fields', () => {
    assert.equal(
      problems({ ...good, padding: 'x'.repeat(FORM_LIMITS.submissionBytes) }),
      'builder.submission_too_large',
    );
    // Counted in UTF-8 bytes, not characters.
    assert.equal(
      problems({ ...good, padding: 'é'.repeat(FORM_LIMITS.submissionBytes / 2) }),
      'builder.submission_too_large',
    );
  });
});

const at = (type: string, data: Record<string, unknown>, streamVersion = 1): StoredEventLike =>
  ({ type, data, streamVersion }) as unknown as StoredEventLike;

describe('the form aggregate', () => {
  const created = decideCreateForm(
    { formId: 'f1', ownerAgentId: 'ada', definition: contact },
    { exists: false, deleted: false },
  );
  const form = fold<FormState>(
    'form-f1',
    created.map((e, i) => at(e.type, e.data, i + 1)),
  );

  test('given a new form, when created, then form.created on its own stream carries the owner and definition', () => {
    assert.deepEqual(
      created.map((e) => [e.stream, e.type]),
      [['form-f1', 'form.created']],
    );
    assert.equal(form.ownerAgentId, 'ada');
    assert.deepEqual(form.definition, contact);
  });

  test('given a form, when its owner changes some parts, then only what differs is written', () => {
    const events = decideUpdateForm(
      { ownerAgentId: 'ada', name: 'Contact', successMessage: 'Thanks!' },
      form,
    );
    assert.deepEqual(
      events.map((e) => e.data),
      [{ formId: 'f1', successMessage: 'Thanks!' }],
    );
    assert.deepEqual(
      decideUpdateForm(
        { ownerAgentId: 'ada', name: 'Contact', fields: structuredClone(contact.fields) },
        form,
      ),
      [],
    );
    const after = fold<FormState>('form-f1', [
      at('form.created', created[0]!.data),
      at(events[0]!.type, events[0]!.data, 2),
    ]);
    assert.equal(after.definition?.successMessage, 'Thanks!');
    assert.equal(after.definition?.name, 'Contact');
  });

  test('given someone else, a deleted form or no form, then builder.form_not_found', () => {
    assert.equal(
      codeOf(() => decideUpdateForm({ ownerAgentId: 'bob', name: 'X' }, form)),
      'builder.form_not_found',
    );
    assert.equal(
      codeOf(() => decideDeleteForm({ ownerAgentId: 'bob', publishedOn: [] }, form)),
      'builder.form_not_found',
    );
    const deleted = { ...form, deleted: true };
    assert.equal(
      codeOf(() => decideUpdateForm({ ownerAgentId: 'ada', name: 'X' }, deleted)),
      'builder.form_not_found',
    );
    assert.equal(
      codeOf(() => decideUpdateForm({ ownerAgentId: 'ada', name: 'X' }, { exists: false, deleted: false })),
      'builder.form_not_found',
    );
  });

  test('given a form a published site holds, when deleted, then builder.form_in_use; else form.deleted', () => {
    assert.equal(
      codeOf(() => decideDeleteForm({ ownerAgentId: 'ada', publishedOn: ['s1'] }, form)),
      'builder.form_in_use',
    );
    assert.deepEqual(
      decideDeleteForm({ ownerAgentId: 'ada', publishedOn: [] }, form).map((e) => [e.stream, e.type, e.data]),
      [['form-f1', 'form.deleted', { formId: 'f1' }]],
    );
  });
});

describe('the submission aggregate', () => {
  const form: FormState = {
    exists: true,
    deleted: false,
    formId: 'f1',
    ownerAgentId: 'ada',
    definition: contact,
  };
  const none: SubmissionState = { exists: false, deleted: false };
  const receive = (f: FormState) =>
    decideReceiveSubmission(
      { submissionId: 's1', siteId: 'site1', values: good, receivedAt: '2026-01-01T00:00:00.000Z' },
      f,
      none,
    );

  test('given a live form, when a good submission arrives, then form.submission_received on its own stream', () => {
    const [e] = receive(form);
    assert.equal(e!.stream, 'submission-s1');
    assert.equal(e!.type, 'form.submission_received');
    assert.deepEqual(e!.data, {
      formId: 'f1',
      submissionId: 's1',
      siteId: 'site1',
      values: {
        name: 'Ada',
        email: 'ada@example.org',
        message: 'Hello\nthere',
        consent: true,
        newsletter: false,
      },
      receivedAt: '2026-01-01T00:00:00.000Z',
    });
  });

  test('given a deleted form or none, then builder.form_not_found; a bad submission is refused before anything', () => {
    assert.equal(
      codeOf(() => receive({ ...form, deleted: true })),
      'builder.form_not_found',
    );
    assert.equal(
      codeOf(() => receive({ exists: false, deleted: false })),
      'builder.form_not_found',
    );
    assert.equal(
      codeOf(() =>
        decideReceiveSubmission({ submissionId: 's1', siteId: 'x', values: {}, receivedAt: 't' }, form, none),
      ),
      'builder.submission_invalid',
    );
  });

  test('given a submission, when its owner deletes it, then form.submission_deleted, and never twice', () => {
    const [received] = receive(form);
    const sub = fold<SubmissionState>('submission-s1', [at(received!.type, received!.data)]);
    const events = decideDeleteSubmission({ ownerAgentId: 'ada', submissionId: 's1' }, form, sub);
    assert.deepEqual(
      events.map((e) => [e.stream, e.type]),
      [['submission-s1', 'form.submission_deleted']],
    );
    const gone = fold<SubmissionState>('submission-s1', [
      at(received!.type, received!.data),
      at(events[0]!.type, events[0]!.data, 2),
    ]);
    assert.equal(
      codeOf(() => decideDeleteSubmission({ ownerAgentId: 'ada', submissionId: 's1' }, form, gone)),
      'builder.submission_not_found',
    );
    assert.equal(
      codeOf(() => decideDeleteSubmission({ ownerAgentId: 'bob', submissionId: 's1' }, form, sub)),
      'builder.submission_not_found',
    );
    const otherForm = { ...form, formId: 'f2' };
    assert.equal(
      codeOf(() => decideDeleteSubmission({ ownerAgentId: 'ada', submissionId: 's1' }, otherForm, sub)),
      'builder.submission_not_found',
    );
  });
});
