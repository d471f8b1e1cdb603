// The forms operations as specifications, on the real pipeline over the in-memory log: CRUD by the
// owner (PATCH semantics, someone else's form is not found), submissions through the public operation
// (only for a form the site's published version holds; honeypot, validation, rate limit, suspension),
// paged lists, the CSV export and deletions. Each refusal writes nothing.
import { starterDraft, type DraftDocument, type NewEvent } from '@tributary/domain';
import { formsForRender, type Principal } from '@tributary/services';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'vitest';
import { unitInstance, type UnitAccount, type UnitInstance } from './given-when-then.js';

interface FormAnswer {
  form: { formId: string; name: string; successMessage: string; submissionCount: number; fields: unknown[] };
}
interface Page {
  submissions: { submissionId: string; values: Record<string, unknown>; receivedAt: string }[];
  nextCursor: string | null;
}

const ANONYMOUS: Principal = { kind: 'anonymous' };
const contactFields = [
  { type: 'text', name: 'name', label: 'Name', required: true },
  { type: 'email', name: 'email', label: 'Email' },
  { type: 'textarea', name: 'message', label: 'Message' },
  { type: 'number', name: 'guests', label: 'Guests', min: -5, max: 100 },
  { type: 'checkbox', name: 'consent', label: 'I agree' },
];

async function createForm(t: UnitInstance, who: UnitAccount, extra: Record<string, unknown> = {}) {
  return (
    await t.when<FormAnswer>(
      'svc.builder.create_form',
      { name: 'Contact', fields: contactFields, ...extra },
      who.principal,
    )
  ).result.form;
}

const withForm = (title: string, formId: string): DraftDocument => {
  const doc = starterDraft(title);
  doc.pages[0]!.blocks.push({ type: 'form', formId });
  return doc;
};

/**
 * A site of `owner` whose draft revisions are `drafts` (in order) and whose published version renders
 * revision `publishedRevision`, written as the core and publish operations write them.
 */
async function publishedSite(
  t: UnitInstance,
  ownerAgentId: string,
  drafts: DraftDocument[],
  publishedRevision = drafts.length,
): Promise<string> {
  const siteId = randomUUID();
  const versionId = randomUUID();
  const hash = 'a'.repeat(64);
  const manifest = [{ path: '/index.html', sha256: 'b'.repeat(64), contentType: 'text/html', length: 1 }];
  const events: NewEvent[] = [
    {
      stream: `site-${siteId}`,
      type: 'site.created',
      data: { siteId, ownerAgentId, title: 'Site', isDefault: false },
    },
    ...drafts.map((document) => ({
      stream: `draft-${siteId}`,
      type: 'site.draft_saved',
      data: { siteId, document },
    })),
    {
      stream: `site-${siteId}`,
      type: 'site.version_created',
      data: { versionId, draftRevision: publishedRevision, manifestHash: hash, manifest },
    },
    {
      stream: `site-${siteId}`,
      type: 'site.published',
      data: { siteId, ownerAgentId, versionId, manifestHash: hash, manifest, title: 'Site' },
    },
  ];
  await t.given(ownerAgentId, events);
  return siteId;
}

const submit = (
  t: UnitInstance,
  siteId: string,
  formId: string,
  values: Record<string, string | string[]>,
  clientKey = 'client-a',
) =>
  t.when<{ submissionId: string | null; successMessage: string }>(
    'svc.builder.submit_form',
    { siteId, formId, values, clientKey },
    ANONYMOUS,
  );

describe('forms: create, list, edit, delete', () => {
  test('given a person, when they create a form, then form.created and list_forms shows it', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const r = await t.when<FormAnswer>(
      'svc.builder.create_form',
      { name: 'Contact', fields: contactFields },
      ada.principal,
    );
    const { form } = r.thenEvents([
      { type: 'form.created', data: { ownerAgentId: ada.agentId, name: 'Contact' } },
    ]);
    assert.equal(r.events[0]!.stream, `form-${form.formId}`);
    assert.equal(form.successMessage, 'Thank you, your message was sent.');
    assert.equal(form.submissionCount, 0);
    const list = (await t.when<{ forms: FormAnswer['form'][] }>('svc.builder.list_forms', {}, ada.principal))
      .result;
    assert.deepEqual(
      list.forms.map((f) => [f.formId, f.name]),
      [[form.formId, 'Contact']],
    );
    const bob = await t.signUp('bob');
    assert.deepEqual(
      (await t.when<{ forms: unknown[] }>('svc.builder.list_forms', {}, bob.principal)).result.forms,
      [],
    );
  });

  test('given bad definitions, then input.invalid and nothing is written', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const bad: unknown[] = [
      [{ type: 'text', name: 'Bad Name', label: 'x' }],
      [{ type: 'text', name: 'website', label: 'honeypot' }],
      [{ type: 'select', name: 's', label: 'S' }],
      [{ type: 'script', name: 's', label: 'S' }],
      [
        { type: 'text', name: 'a', label: 'A' },
        { type: 'email', name: 'a', label: 'A again' },
      ],
      Array.from({ length: 31 }, (_, i) => ({ type: 'text', name: `f${i}`, label: 'F' })),
      [],
    ];
    for (const fields of bad)
      (await t.when('svc.builder.create_form', { name: 'F', fields }, ada.principal)).thenError(
        'input.invalid',
      );
    (await t.when('svc.builder.create_form', { fields: contactFields }, ada.principal)).thenError(
      'input.invalid',
    );
  });

  test('given a form, when its owner patches parts, then only what changed is written; nothing changed writes nothing', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const form = await createForm(t, ada);
    const r = await t.when<FormAnswer>(
      'svc.builder.update_form',
      { formId: form.formId, name: 'Contact', successMessage: 'Thanks, we will write back.' },
      ada.principal,
    );
    r.thenEvents([
      { type: 'form.updated', data: { formId: form.formId, successMessage: 'Thanks, we will write back.' } },
    ]);
    assert.equal(r.events[0]!.data.name, undefined, 'an unchanged name is not written');
    assert.equal(r.result.form.successMessage, 'Thanks, we will write back.');
    assert.equal(r.result.form.fields.length, contactFields.length, 'fields not given stay');

    (
      await t.when('svc.builder.update_form', { formId: form.formId, fields: contactFields }, ada.principal)
    ).thenEvents([]);
    const fewer = await t.when<FormAnswer>(
      'svc.builder.update_form',
      { formId: form.formId, fields: contactFields.slice(0, 2) },
      ada.principal,
    );
    fewer.thenEvents([{ type: 'form.updated' }]);
    assert.equal(fewer.result.form.fields.length, 2);
    (await t.when('svc.builder.update_form', { formId: form.formId }, ada.principal)).thenError(
      'input.invalid',
    );
    (
      await t.when(
        'svc.builder.update_form',
        { formId: form.formId, fields: [{ type: 'text' }] },
        ada.principal,
      )
    ).thenError('input.invalid');
  });

  test("given someone else's form or none, then builder.form_not_found for every operation, writing nothing", async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const bob = await t.signUp('bob');
    const form = await createForm(t, ada);
    const unknown = randomUUID();
    for (const formId of [form.formId, unknown]) {
      (await t.when('svc.builder.update_form', { formId, name: 'Mine' }, bob.principal)).thenError(
        'builder.form_not_found',
      );
      (await t.when('svc.builder.delete_form', { formId }, bob.principal)).thenError(
        'builder.form_not_found',
      );
      (await t.when('svc.builder.list_submissions', { formId }, bob.principal)).thenError(
        'builder.form_not_found',
      );
      (await t.when('svc.builder.export_submissions', { formId }, bob.principal)).thenError(
        'builder.form_not_found',
      );
    }
    // Someone else's agent as the owner: the pipeline's own 404.
    (await t.when('svc.builder.list_forms', { targetAgentId: ada.agentId }, bob.principal)).thenError(
      'agent.not_found',
    );
  });

  test("given a persona, when its owner acts for it, then the form is the persona's, not the person's", async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const persona = (
      await t.when<{ agentId: string }>('svc.agent.create_persona', { name: 'Shop' }, ada.principal)
    ).result;
    const form = (
      await t.when<FormAnswer>(
        'svc.builder.create_form',
        { targetAgentId: persona.agentId, name: 'Orders', fields: contactFields },
        ada.principal,
      )
    ).result.form;
    const forPersona = await t.when<{ forms: { formId: string }[] }>(
      'svc.builder.list_forms',
      { targetAgentId: persona.agentId },
      ada.principal,
    );
    assert.deepEqual(
      forPersona.result.forms.map((f) => f.formId),
      [form.formId],
    );
    assert.deepEqual(
      (await t.when<{ forms: unknown[] }>('svc.builder.list_forms', {}, ada.principal)).result.forms,
      [],
    );
    (await t.when('svc.builder.update_form', { formId: form.formId, name: 'X' }, ada.principal)).thenError(
      'builder.form_not_found',
    );
  });

  test('given a token, then reading needs svc.builder.read and writing svc.builder.write', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const token = (scopes: string[]): Principal => ({
      kind: 'token',
      jti: 'j',
      accountId: ada.accountId,
      agentId: ada.agentId,
      scopes,
    });
    (
      await t.when(
        'svc.builder.create_form',
        { name: 'F', fields: contactFields },
        token(['svc.builder.read']),
      )
    ).thenError('auth.insufficient_scope');
    (await t.when('svc.builder.list_forms', {}, token(['svc.builder.write']))).thenError(
      'auth.insufficient_scope',
    );
    (
      await t.when(
        'svc.builder.create_form',
        { name: 'F', fields: contactFields },
        token(['svc.builder.write']),
      )
    ).thenEvents([{ type: 'form.created' }]);
    (await t.when('svc.builder.list_forms', {}, ANONYMOUS)).thenError('auth.required');
  });

  test('given a form a published site holds, then delete_form is builder.form_in_use; one no site publishes goes with its submissions', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const live = await createForm(t, ada);
    const siteId = await publishedSite(t, ada.agentId, [withForm('Site', live.formId)]);
    (await t.when('svc.builder.delete_form', { formId: live.formId }, ada.principal)).thenError(
      'builder.form_in_use',
    );

    // A later publish without it frees it.
    const draft = starterDraft('Site');
    const versionId = randomUUID();
    const manifest = [{ path: '/index.html', sha256: 'c'.repeat(64), contentType: 'text/html', length: 1 }];
    await t.given(ada.agentId, [
      { stream: `draft-${siteId}`, type: 'site.draft_saved', data: { siteId, document: draft } },
      {
        stream: `site-${siteId}`,
        type: 'site.version_created',
        data: { versionId, draftRevision: 2, manifestHash: 'd'.repeat(64), manifest },
      },
      {
        stream: `site-${siteId}`,
        type: 'site.published',
        data: {
          siteId,
          ownerAgentId: ada.agentId,
          versionId,
          manifestHash: 'd'.repeat(64),
          manifest,
          title: 'Site',
        },
      },
    ]);
    (await t.when('svc.builder.delete_form', { formId: live.formId }, ada.principal)).thenEvents([
      { type: 'form.deleted', stream: `form-${live.formId}`, data: { formId: live.formId } },
    ]);
    assert.deepEqual(
      (await t.when<{ forms: unknown[] }>('svc.builder.list_forms', {}, ada.principal)).result.forms,
      [],
    );
    (await t.when('svc.builder.delete_form', { formId: live.formId }, ada.principal)).thenError(
      'builder.form_not_found',
    );
  });
});

describe('forms: public submissions', () => {
  test('given a site whose published version holds the form, when a visitor submits, then one private submission, typed', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const form = await createForm(t, ada);
    const siteId = await publishedSite(t, ada.agentId, [withForm('Site', form.formId)]);
    const r = await submit(t, siteId, form.formId, {
      name: 'Visitor',
      email: 'v@example.org',
      guests: '3',
      consent: 'on',
      website: '',
      submit: 'Send',
    });
    const answer = r.thenEvents([
      {
        type: 'form.submission_received',
        data: {
          formId: form.formId,
          siteId,
          values: { name: 'Visitor', email: 'v@example.org', guests: 3, consent: true },
        },
      },
    ]);
    assert.equal(r.events[0]!.stream, `submission-${answer.submissionId}`);
    // Written by the instance on the visitor's behalf, never as the owner.
    assert.equal(r.events[0]!.actorId, t.primaryAgentId);
    assert.equal(answer.successMessage, form.successMessage);
    const page = (await t.when<Page>('svc.builder.list_submissions', { formId: form.formId }, ada.principal))
      .result;
    assert.deepEqual(
      page.submissions.map((s) => s.submissionId),
      [answer.submissionId],
    );
  });

  test('given the honeypot filled, then the visitor is told it succeeded and nothing is written', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const form = await createForm(t, ada);
    const siteId = await publishedSite(t, ada.agentId, [withForm('Site', form.formId)]);
    const r = await submit(t, siteId, form.formId, { name: 'Bot', website: 'https://spam.example' });
    assert.deepEqual(r.thenEvents([]), {
      formId: form.formId,
      submissionId: null,
      successMessage: form.successMessage,
    });
  });

  test('given bad values, then builder.submission_invalid names each field and nothing is written', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const form = await createForm(t, ada);
    const siteId = await publishedSite(t, ada.agentId, [withForm('Site', form.formId)]);
    const r = await submit(t, siteId, form.formId, { email: 'nope', guests: '1000' });
    r.thenError('builder.submission_invalid');
    assert.deepEqual((r.error as { details: unknown }).details, {
      fields: [
        { field: 'name', reason: 'required' },
        { field: 'email', reason: 'not_email' },
        { field: 'guests', reason: 'above_max' },
      ],
    });
    (await submit(t, siteId, form.formId, { name: 'x'.repeat(40 * 1024) })).thenError(
      'builder.submission_too_large',
    );
  });

  test('given a form the published version does not hold, then builder.form_not_found', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const bob = await t.signUp('bob');
    const form = await createForm(t, ada);
    const other = await createForm(t, ada);
    const bobs = await createForm(t, bob);
    // Revision 2 adds the form, but revision 1 is what is published.
    const draftOnly = await publishedSite(t, ada.agentId, [starterDraft('S'), withForm('S', form.formId)], 1);
    (await submit(t, draftOnly, form.formId, { name: 'V' })).thenError('builder.form_not_found');
    const siteId = await publishedSite(t, ada.agentId, [withForm('Site', form.formId)]);
    (await submit(t, siteId, other.formId, { name: 'V' })).thenError('builder.form_not_found');
    // A form of someone else on ada's page (never rendered, but checked anyway).
    const foreign = await publishedSite(t, ada.agentId, [withForm('Site', bobs.formId)]);
    (await submit(t, foreign, bobs.formId, { name: 'V' })).thenError('builder.form_not_found');
    (await submit(t, randomUUID(), form.formId, { name: 'V' })).thenError('builder.form_not_found');
    (await submit(t, siteId, 'not-a-uuid', { name: 'V' })).thenError('input.invalid');
  });

  test('given a suspended site, then builder.site_suspended', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const form = await createForm(t, ada);
    const siteId = await publishedSite(t, ada.agentId, [withForm('Site', form.formId)]);
    await t.given(t.primaryAgentId, [
      { stream: `site-${siteId}`, type: 'site.suspended', data: { siteId, reason: 'spam' } },
    ]);
    (await submit(t, siteId, form.formId, { name: 'V' })).thenError('builder.site_suspended');
  });

  test('given five submissions from one client within a minute, then the sixth is rate limited until the minute passes; others are not', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const form = await createForm(t, ada);
    const siteId = await publishedSite(t, ada.agentId, [withForm('Site', form.formId)]);
    for (let i = 0; i < 5; i++)
      (await submit(t, siteId, form.formId, { name: `V${i}` })).thenEvents([
        { type: 'form.submission_received' },
      ]);
    const limited = await submit(t, siteId, form.formId, { name: 'V5' });
    limited.thenError('builder.submission_rate_limited');
    const retryAfter = (limited.error as { details: { retryAfter: number } }).details.retryAfter;
    assert.ok(retryAfter >= 1 && retryAfter <= 60, `retryAfter ${retryAfter}`);
    // Counted per client: another client is not held back.
    (await submit(t, siteId, form.formId, { name: 'W' }, 'client-b')).thenEvents([
      { type: 'form.submission_received' },
    ]);
    t.clock.advance(61_000);
    (await submit(t, siteId, form.formId, { name: 'V6' })).thenEvents([{ type: 'form.submission_received' }]);
  });
});

describe('forms: reading, exporting and deleting submissions', () => {
  async function withSubmissions(n: number) {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const form = await createForm(t, ada);
    const siteId = await publishedSite(t, ada.agentId, [withForm('Site', form.formId)]);
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      t.clock.advance(1000);
      const r = await submit(t, siteId, form.formId, { name: `Visitor ${i}` }, `client-${i}`);
      ids.push(r.result.submissionId!);
    }
    return { t, ada, form, siteId, ids };
  }

  test('given seven submissions, when listed three a page, then newest first and every one once', async () => {
    const { t, ada, form, ids } = await withSubmissions(7);
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page: Page = (
        await t.when<Page>(
          'svc.builder.list_submissions',
          { formId: form.formId, limit: 3, ...(cursor && { cursor }) },
          ada.principal,
        )
      ).result;
      seen.push(...page.submissions.map((s) => s.submissionId));
      cursor = page.nextCursor ?? undefined;
      pages++;
    } while (cursor);
    assert.equal(pages, 3);
    assert.deepEqual(seen, [...ids].reverse());
    (
      await t.when('svc.builder.list_submissions', { formId: form.formId, cursor: 'garbage' }, ada.principal)
    ).thenError('input.invalid');
    (
      await t.when('svc.builder.list_submissions', { formId: form.formId, limit: 201 }, ada.principal)
    ).thenError('input.invalid');
    const counted = (
      await t.when<{ forms: { submissionCount: number }[] }>('svc.builder.list_forms', {}, ada.principal)
    ).result.forms[0]!;
    assert.equal(counted.submissionCount, 7);
  });

  test('given one form on two sites, then list_forms counts the unread ones by the site they came through, and marking them seen clears both', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const form = await createForm(t, ada);
    const shop = await publishedSite(t, ada.agentId, [withForm('Shop', form.formId)]);
    const club = await publishedSite(t, ada.agentId, [withForm('Club', form.formId)]);
    for (const [i, siteId] of [shop, club, shop].entries()) {
      t.clock.advance(1000);
      await submit(t, siteId, form.formId, { name: `Visitor ${i}` }, `client-${i}`);
    }
    type Listed = { formId: string; unreadCount: number; unreadBySite: { siteId: string; count: number }[] };
    const listed = async () =>
      (await t.when<{ forms: Listed[] }>('svc.builder.list_forms', {}, ada.principal)).result.forms[0]!;
    const before = await listed();
    assert.equal(before.unreadCount, 3);
    assert.deepEqual(
      before.unreadBySite,
      [
        { siteId: shop, count: 2 },
        { siteId: club, count: 1 },
      ].sort((a, b) => (a.siteId < b.siteId ? -1 : 1)),
    );
    await t.when('svc.builder.mark_submissions_seen', { formId: form.formId }, ada.principal);
    const after = await listed();
    assert.equal(after.unreadCount, 0);
    assert.deepEqual(after.unreadBySite, [], 'a site with none is left out');
  });

  test('given submissions with formulas, line breaks and checkboxes, then the CSV has the fields then received_at, formulas neutralized', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const form = await createForm(t, ada, { name: 'Café orders!' });
    const siteId = await publishedSite(t, ada.agentId, [withForm('Site', form.formId)]);
    const one = (
      await submit(
        t,
        siteId,
        form.formId,
        { name: '=HYPERLINK("http://evil.example")', guests: '-3', consent: 'on' },
        'a',
      )
    ).result;
    t.clock.advance(1000);
    await submit(
      t,
      siteId,
      form.formId,
      { name: '@SUM(1)', message: 'line one\r\nline two', email: '+1@example.org' },
      'b',
    );
    const out = (
      await t.when<{
        csv: string;
        filename: string;
        rows: number;
        contentType: string;
        nextCursor: string | null;
      }>('svc.builder.export_submissions', { formId: form.formId }, ada.principal)
    ).result;
    assert.equal(out.rows, 2);
    assert.equal(out.nextCursor, null);
    assert.equal(out.contentType, 'text/csv; charset=utf-8');
    assert.match(out.filename, /^cafe-orders-submissions-\d{4}-\d{2}-\d{2}\.csv$/);
    const received = (
      await t.when<Page>('svc.builder.list_submissions', { formId: form.formId }, ada.principal)
    ).result.submissions.map((s) => s.receivedAt);
    assert.equal(
      out.csv,
      [
        'name,email,message,guests,consent,received_at',
        `'@SUM(1),'+1@example.org,"line one\nline two",,false,${received[0]}`,
        `"'=HYPERLINK(""http://evil.example"")",,,-3,true,${received[1]}`,
        '',
      ].join('\r\n'),
    );
    assert.ok(one.submissionId);
  });

  test('given a submission, when its owner deletes it, then it leaves the list; again, or by someone else, builder.submission_not_found', async () => {
    const { t, ada, form, ids } = await withSubmissions(2);
    const bob = await t.signUp('bob');
    (await t.when('svc.builder.delete_submission', { submissionId: ids[0] }, bob.principal)).thenError(
      'builder.submission_not_found',
    );
    (
      await t.when(
        'svc.builder.delete_submission',
        { submissionId: ids[0], formId: randomUUID() },
        ada.principal,
      )
    ).thenError('builder.submission_not_found');
    (await t.when('svc.builder.delete_submission', { submissionId: ids[0] }, ada.principal)).thenEvents([
      { type: 'form.submission_deleted', stream: `submission-${ids[0]}`, data: { formId: form.formId } },
    ]);
    (await t.when('svc.builder.delete_submission', { submissionId: ids[0] }, ada.principal)).thenError(
      'builder.submission_not_found',
    );
    const page = (await t.when<Page>('svc.builder.list_submissions', { formId: form.formId }, ada.principal))
      .result;
    assert.deepEqual(
      page.submissions.map((s) => s.submissionId),
      [ids[1]],
    );
  });
});

describe('forms: what the renderer is given', () => {
  test('given forms of two owners, then formsForRender maps only the owner’s live ones, with options and length limits', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const bob = await t.signUp('bob');
    const mine = await createForm(t, ada, {
      fields: [
        { type: 'text', name: 'name', label: 'Name', required: true, maxLength: 80 },
        { type: 'select', name: 'topic', label: 'Topic', options: ['A', 'B'] },
        { type: 'checkbox', name: 'ok', label: 'OK' },
      ],
    });
    const theirs = await createForm(t, bob);
    const forms = await formsForRender(t.services.builder.read, ada.agentId, [
      mine.formId,
      theirs.formId,
      randomUUID(),
    ]);
    assert.deepEqual([...forms.keys()], [mine.formId]);
    assert.deepEqual(forms.get(mine.formId), {
      formId: mine.formId,
      fields: [
        { name: 'name', label: 'Name', type: 'text', required: true, maxLength: 80 },
        { name: 'topic', label: 'Topic', type: 'select', required: false, options: ['A', 'B'] },
        { name: 'ok', label: 'OK', type: 'checkbox', required: false },
      ],
    });
  });
});

describe('forms: drafts name only their owner’s forms', () => {
  test('given a form of someone else or none, when a draft names it, then builder.unknown_reference; one’s own is saved', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const bob = await t.signUp('bob');
    const mine = await createForm(t, ada);
    const theirs = await createForm(t, bob);
    const draft = (await t.when<{ revision: number }>('svc.builder.read_draft', {}, ada.principal)).result;
    for (const formId of [theirs.formId, randomUUID()])
      (
        await t.when(
          'svc.builder.save_draft',
          { revision: draft.revision, document: withForm('Site', formId) },
          ada.principal,
        )
      ).thenError('builder.unknown_reference');
    (
      await t.when(
        'svc.builder.save_draft',
        { revision: draft.revision, document: withForm('Site', mine.formId) },
        ada.principal,
      )
    )
      // The first write makes the default site (with its starter draft) that the read showed.
      .thenEvents([{ type: 'site.created' }, { type: 'site.draft_saved' }, { type: 'site.draft_saved' }]);
  });
});

describe('forms: through the real preview and publish', () => {
  test('given a draft with a form, when previewed and published, then the page posts to /_forms/<formId> with the fields and honeypot, and the published form takes submissions', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const form = await createForm(t, ada);
    const draft = (
      await t.when<{ siteId: string; revision: number }>('svc.builder.read_draft', {}, ada.principal)
    ).result;
    await t.when(
      'svc.builder.save_draft',
      { revision: draft.revision, document: withForm('Site', form.formId) },
      ada.principal,
    );
    const preview = (await t.when<{ html: string }>('svc.builder.preview', {}, ada.principal)).result;
    assert.match(preview.html, new RegExp(`<form[^>]* method="post" action="[^"]*_forms/${form.formId}"`));
    for (const name of ['name', 'email', 'message', 'guests', 'consent', 'website'])
      assert.match(preview.html, new RegExp(`name="${name}"`), name);
    // Previewed but not published: nothing is taken yet.
    (await submit(t, draft.siteId, form.formId, { name: 'Early' })).thenError('builder.form_not_found');
    // The first publish also claims an address from the site's title (docs/builder.md#versions).
    (await t.when('svc.builder.publish', {}, ada.principal)).thenEvents([
      { type: 'site.address_claimed' },
      { type: 'site.address_set' },
      { type: 'site.published', data: { siteId: draft.siteId } },
    ]);
    // As the rendered checkbox sends it: value="yes".
    (await submit(t, draft.siteId, form.formId, { name: 'On time', consent: 'yes', website: '' })).thenEvents(
      [{ type: 'form.submission_received', data: { values: { name: 'On time', consent: true } } }],
    );
    (await t.when('svc.builder.delete_form', { formId: form.formId }, ada.principal)).thenError(
      'builder.form_in_use',
    );
  });
});
