// The builder's forms pages: the owner's forms (create, edit the fields), and each form's submissions
// (read page by page, export as CSV through GET /api/builder/forms/submissions.csv, delete one). The
// field editor is rows of plain inputs: a row with an empty label is left out, so adding a field is
// filling in an empty row, and removing one is clearing its label.
import {
  FORM_FIELD_TYPES,
  invalid,
  type DomainError,
  type DraftDocument,
  type FormField,
} from '@tributary/domain';
import {
  createForm,
  deleteForm,
  deleteSubmission,
  listForms,
  listSites,
  listSubmissions,
  markSubmissionsSeen,
  readDraft,
  readSubmissionMail,
  saveDraft,
  setSubmissionMail,
  updateForm,
  type SubmissionMailView,
} from '@tributary/services';
import { Router, type Request, type Response } from 'express';
import type { HttpContext } from '../../http/index.js';
import {
  badge,
  button,
  card,
  csrfField,
  emailText,
  field,
  linkButton,
  postButton,
  problemNotice,
  table,
  when,
  whenText,
} from '../components.js';
import { html, raw, type Html } from '../html.js';
import {
  postingPerson,
  redirectWithNotice,
  requirePerson,
  type PagePerson,
  pagePrologue,
} from '../page-session.js';
import { str, type FormBody } from './draft-edits.js';
import {
  actingAs,
  asField,
  attempt,
  href,
  isUuid,
  ownerChooser,
  ownersOf,
  sendStudioPage,
  tabs,
  target,
} from './studio-support.js';

const NOTICES: Record<string, string> = {
  formcreated: 'Form created. Add it to a page with a “form” block.',
  formsaved: 'Form saved.',
  formdeleted: 'Form deleted.',
  submissiondeleted: 'Submission deleted.',
  mailset: 'Saved: email about new submissions.',
};

/** Why no email comes, in words (docs/builder.md#submission-mail): the state first, plainly. */
const MAIL_NOT_SENT: Record<Exclude<SubmissionMailView['delivery'], 'on'>, string> = {
  no_mail_server: 'this instance has no mail server',
  no_email: 'your account has no email address',
  email_not_verified: 'your email address is not verified yet',
};
/** The fields a form made from the editor's form block starts with: a contact form. */
const STARTER_FIELDS: FormField[] = [
  { type: 'text', name: 'name', label: 'Your name', required: true },
  { type: 'email', name: 'email', label: 'Your email address', required: true },
  { type: 'textarea', name: 'message', label: 'Message', required: true },
];

/**
 * A refusal of "New form" in the editor: back to the editor's form block, the problem in words (the
 * editor page shows `?problem=` codes it knows); nothing was created or changed.
 */
function backToEditor(res: Response, as: string | undefined, site: string, page: string, error: DomainError) {
  res.redirect(
    303,
    `${href(`/builder/sites/${site}`, as, { page: String(Number(page) || 0), formproblem: error.code })}#add-form`,
  );
}

/** Empty rows offered under a form's fields, for adding new ones without JavaScript. */
const EMPTY_ROWS = 3;
const TYPE_NAMES: Record<string, string> = {
  text: 'Short text',
  email: 'Email address',
  textarea: 'Long text',
  number: 'Number',
  checkbox: 'Checkbox',
  select: 'Choice (list)',
  url: 'Web address',
  tel: 'Phone number',
  date: 'Date',
};

/** The fields the rows of the editor describe (rows with an empty label are left out). */
export function fieldsFromRows(body: FormBody): FormField[] {
  const list = (name: string) => {
    const v = body[name];
    return Array.isArray(v) ? v : v === undefined ? [] : [v];
  };
  const types = list('ftype');
  const names = list('fname');
  const labels = list('flabel');
  const options = list('foptions');
  const required = new Set(list('frequired'));
  const out: FormField[] = [];
  labels.forEach((label, i) => {
    if (label.trim() === '') return;
    const type = types[i] ?? 'text';
    const name =
      (names[i] ?? '').trim() ||
      label
        .toLowerCase()
        .normalize('NFKD')
        .replace(/[^a-z0-9]+/g, '_')
        .replace(/^[^a-z]+|_+$/g, '')
        .slice(0, 40) ||
      `field_${i + 1}`;
    const base = { type, name, label: label.trim(), required: required.has(String(i)) };
    out.push(
      (type === 'select'
        ? {
            ...base,
            options: (options[i] ?? '')
              .split(/\r?\n|,/)
              .map((o) => o.trim())
              .filter((o) => o !== ''),
          }
        : base) as FormField,
    );
  });
  return out;
}

export function builderFormRoutes(ctx: HttpContext): Router {
  const r = Router();
  const { posts, run, noticeOf } = pagePrologue(ctx, NOTICES);
  const tabsOf = (as: string | undefined) =>
    tabs([
      { href: href('/builder', as), label: 'Sites', current: false },
      { href: href('/builder/media', as), label: 'Pictures', current: false },
      { href: href('/builder/forms', as), label: 'Forms and submissions', current: true },
    ]);

  function rows(fields: readonly FormField[]): Html {
    const all = [...fields, ...Array.from({ length: EMPTY_ROWS }, () => undefined)];
    return html`<fieldset class="field form-fields">
      <legend>Fields</legend>
      <p class="hint">
        Each row is a field visitors fill in. Leave the label empty to leave a row out. For a choice, list the
        options one a line.
      </p>
      <ol class="plain stack">
        ${all.map((f, i) => {
          const id = `row-${i}`;
          return html`<li class="field-row card">
            <div class="row-grid">
              <div class="field">
                <label for="${id}-label">Label</label
                ><input id="${id}-label" name="flabel" value="${f?.label ?? ''}" maxlength="200" />
              </div>
              <div class="field">
                <label for="${id}-type">Type</label
                ><select id="${id}-type" name="ftype">
                  ${FORM_FIELD_TYPES.map(
                    (t) =>
                      html`<option value="${t}" ${(f?.type ?? 'text') === t ? raw(' selected') : ''}>
                        ${TYPE_NAMES[t] ?? t}
                      </option>`,
                  )}
                </select>
              </div>
              <div class="field">
                <label for="${id}-name">Name in exports</label
                ><input
                  id="${id}-name"
                  name="fname"
                  value="${f?.name ?? ''}"
                  maxlength="40"
                  pattern="[a-z][a-z0-9_]*"
                />
              </div>
              <div class="field options-field">
                <label for="${id}-options">Options (for a choice)</label
                ><textarea id="${id}-options" name="foptions" rows="2">
${f?.type === 'select' ? f.options.join('\n') : ''}</textarea>
              </div>
            </div>
            <label class="check"
              ><input
                type="checkbox"
                name="frequired"
                value="${String(i)}"
                ${f?.required ? raw(' checked') : ''}
              />
              <span>Required</span></label
            >
          </li>`;
        })}
      </ol>
    </fieldset>`;
  }

  async function formsPage(req: Request, res: Response, person: PagePerson, error?: DomainError) {
    const as = actingAs(req);
    const [owners, forms] = await Promise.all([ownersOf(ctx, person), run(listForms, target(as), person)]);
    const body = html`${ownerChooser('/builder/forms', owners, as)}
    ${noticeOf(req)}${error ? problemNotice(error) : ''} ${tabsOf(as)}
    ${card(
      'Your forms',
      table({
        caption: 'Your forms',
        head: ['Form', 'Fields', 'Submissions', 'Changed', ''],
        stack: true,
        empty: 'No forms yet.',
        rows: forms.forms.map((f) => [
          html`<a href="${href(`/builder/forms/${f.formId}`, as)}">${f.name}</a>`,
          String(f.fields.length),
          html`<span data-submissions="${f.formId}">${String(f.submissionCount)}</span
            >${f.unreadCount > 0 ? html` ${badge(`${f.unreadCount} new`, 'warn')}` : ''}`,
          when(f.updatedAt, 'never', { ago: true }),
          linkButton(
            href(`/builder/forms/${f.formId}`, as),
            html`Open<span class="visually-hidden"> ${f.name}</span>`,
          ),
        ]),
      }),
      { id: 'forms' },
    )}
    ${card(
      'New form',
      html`<form method="post" action="/builder/forms" class="stack" data-keep="new-form">
        ${csrfField(person.csrf)}${asField(as)}
        ${field({ name: 'name', label: 'Form name', hint: 'For your lists; the page shows no form title (put a heading above it).', required: true, maxlength: 100 })}
        ${rows([])}
        ${field({ name: 'successMessage', label: 'Message after sending (optional)', maxlength: 1000 })}
        <div class="actions">${button('Create form', { kind: 'primary' })}</div>
      </form>`,
      { id: 'new-form' },
    )}`;
    sendStudioPage(
      res,
      person,
      { title: 'Forms and submissions', current: '/builder', body, scripts: ['keep-typed.js'] },
      error ? 400 : 200,
    );
  }

  r.get('/builder/forms', async (req, res) => {
    const person = await requirePerson(ctx, req, res);
    if (person) await formsPage(req, res, person);
  });

  r.post('/builder/forms', ...posts, async (req, res) => {
    const person = await postingPerson(ctx, req, res);
    if (!person) return;
    const as = actingAs(req);
    const body = req.body as FormBody;
    const success = str(body, 'successMessage').trim();
    // From the editor's form block: the form starts with a contact form's fields and goes on the page.
    const site = isUuid(str(body, 'site')) ? str(body, 'site') : undefined;
    const rows = fieldsFromRows(body);
    const made = await attempt(() =>
      run(
        createForm,
        {
          ...target(as),
          name: str(body, 'name'),
          fields: site && rows.length === 0 ? STARTER_FIELDS : rows,
          ...(success && { successMessage: success }),
        },
        person,
      ),
    );
    if (!made.ok) {
      if (site) return backToEditor(res, as, site, str(body, 'page'), made.error);
      return formsPage(req, res, person, made.error);
    }
    if (site) {
      const page = Number(str(body, 'page')) || 0;
      const placed = await attempt(async () => {
        const current = await run(readDraft, { ...target(as), siteId: site }, person);
        const doc = current.document as DraftDocument;
        const blocks = doc.pages[page]?.blocks;
        if (!blocks) throw invalid('input.invalid', 'that page is not on this draft any more; reload it');
        blocks.push({ type: 'form', formId: made.value.form.formId });
        // Over the revision just read: an append undoes no one's edit.
        await run(
          saveDraft,
          { ...target(as), siteId: site, revision: current.revision, document: doc },
          person,
        );
        return blocks.length - 1;
      });
      const editor = href(`/builder/sites/${site}`, as, {
        page: String(page),
        notice: placed.ok ? 'formadded' : undefined,
        form: placed.ok ? made.value.form.formId : undefined,
      });
      if (!placed.ok) return backToEditor(res, as, site, String(page), placed.error);
      return void res.redirect(303, `${editor}#block-${placed.value}`);
    }
    redirectWithNotice(res, href(`/builder/forms/${made.value.form.formId}`, as), 'formcreated');
  });

  async function formPage(
    req: Request,
    res: Response,
    person: PagePerson,
    formId: string,
    error?: DomainError,
  ) {
    const as = actingAs(req);
    const cursor = typeof req.query.cursor === 'string' ? req.query.cursor : undefined;
    const [forms, subs, mail] = await Promise.all([
      run(listForms, target(as), person),
      attempt(() =>
        run(listSubmissions, { ...target(as), formId, limit: 50, ...(cursor && { cursor }) }, person),
      ),
      run(readSubmissionMail, target(as), person),
    ]);
    const form = forms.forms.find((f) => f.formId === formId);
    if (!form || !subs.ok)
      return sendStudioPage(
        res,
        person,
        {
          title: 'Form not found',
          current: '/builder',
          body: problemNotice(
            subs.ok ? { code: 'builder.form_not_found', message: 'No such form of yours.' } : subs.error,
          ),
        },
        404,
      );
    // Looking is what makes them seen: the newest one shown (the first page only: older pages hold none
    // newer). A write on a page view, but the person's own, idempotent, and what the page is for; the
    // ones received after it stay unread (docs/builder.md#unread). A failure leaves them unread, no more.
    const newest = cursor ? undefined : subs.value.submissions[0]?.receivedAt;
    const isNew = (receivedAt: string) => form.seenThrough === null || receivedAt > form.seenThrough;
    if (newest && isNew(newest))
      await attempt(() => run(markSubmissionsSeen, { ...target(as), formId, through: newest }, person));
    // The sites whose draft holds this form (a form block, in columns too): the way back to the editor.
    const usedOn = await attempt(async () => {
      const { sites } = await run(listSites, { ...target(as), holdingForm: formId }, person);
      return sites;
    });
    const csv = `/api/builder/forms/submissions.csv?${new URLSearchParams({ formId, ...(as && { targetAgentId: as }) }).toString()}`;
    const body = html`${noticeOf(req)}${error ? problemNotice(error) : ''} ${tabsOf(as)}
      <p class="small"><a href="${href('/builder/forms', as)}">All forms</a></p>
      <p data-field="form-sites">
        ${
          usedOn.ok && usedOn.value.length > 0
            ? html`On the page of
              ${usedOn.value.map(
                (site, i) =>
                  html`${i > 0 ? ', ' : ''}<a href="${href(`/builder/sites/${site.siteId}`, as)}"
                      >${site.title}</a
                    >`,
              )}
              (open the site to change where it appears).`
            : html`Not on any site yet: add it to a page with a “form” block in the
                <a href="${href('/builder', as)}">site builder</a>.`
        }
      </p>
      ${card(
        'Submissions',
        html`<p class="cluster">
            <span>${badge(`${form.submissionCount} received`)}</span> ${linkButton(csv, 'Download CSV')}
          </p>
          ${table({
            caption: `Submissions to ${form.name}, newest first`,
            head: ['Received', ...form.fields.map((f) => f.label), ''],
            // On a phone each submission is a card of labelled answers, however many fields the form has.
            stack: true,
            empty: 'No submissions yet. They arrive when visitors send the form on the published site.',
            rows: subs.value.submissions.map((s) => [
              html`${when(s.receivedAt, 'never', { ago: true })}${isNew(s.receivedAt) ? html` ${badge('new', 'warn')}` : ''}`,
              ...form.fields.map((f) => {
                const v = s.values[f.name];
                return html`<span class="cell"
                  >${
                    v === undefined
                      ? ''
                      : typeof v === 'boolean'
                        ? v
                          ? 'yes'
                          : 'no'
                        : f.type === 'email'
                          ? emailText(String(v))
                          : String(v)
                  }</span
                >`;
              }),
              postButton({
                action: `/builder/forms/${formId}/submissions/delete`,
                csrf: person.csrf,
                label: html`Delete<span class="visually-hidden">
                    the submission of ${whenText(s.receivedAt)}</span
                  >`,
                kind: 'danger',
                fields: { submissionId: s.submissionId, ...(as && { as }) },
                confirm: 'Delete this submission?',
              }),
            ]),
          })}
          ${subs.value.nextCursor ? html`<p><a href="${href(`/builder/forms/${formId}`, as, { cursor: subs.value.nextCursor })}">Older submissions</a></p>` : ''}`,
        { id: 'submissions' },
      )}
      ${mailCard(person, as, formId, mail)}
      ${card(
        'Edit the form',
        html`<form method="post" action="/builder/forms/${formId}" class="stack" data-keep="edit-form">
            ${csrfField(person.csrf)}${asField(as)}
            ${field({ name: 'name', label: 'Form name', value: form.name, required: true, maxlength: 100 })}
            ${rows(form.fields)}
            ${field({ name: 'successMessage', label: 'Message after sending', value: form.successMessage, maxlength: 1000 })}
            <div class="actions">${button('Save form', { kind: 'primary' })}</div>
          </form>
          ${postButton({ action: `/builder/forms/${formId}/delete`, csrf: person.csrf, label: 'Delete this form', kind: 'danger', fields: as ? { as } : {}, confirm: 'Delete this form and its submissions?' })}`,
        { id: 'edit-form' },
      )}`;
    sendStudioPage(
      res,
      person,
      {
        title: form.name,
        current: '/builder',
        body,
        scripts: ['keep-typed.js'],
        lede: 'A form of yours: what visitors sent, and its fields.',
      },
      error ? 400 : 200,
    );
  }

  /**
   * Email about new submissions: whether it is sent at all (when not, plainly "not sent", why, and what
   * to do: an operator is pointed to where mail is set up), then this form's and each site's switch.
   */
  function mailCard(person: PagePerson, as: string | undefined, formId: string, mail: SubmissionMailView) {
    const sending = mail.delivery === 'on';
    const toggle = (what: { formId: string } | { siteId: string }, name: string, enabled: boolean) =>
      html`<li>
        ${name}:
        ${
          !enabled
            ? badge('off')
            : sending
              ? badge('on', 'ok')
              : html`${badge('not sending')}
                  <span class="small muted">turned on: email starts once it can be sent</span>`
        }
        ${postButton({
          action: `/builder/forms/${formId}/mail`,
          csrf: person.csrf,
          label: html`${enabled ? 'Turn off' : 'Turn on'}<span class="visually-hidden"> for ${name}</span>`,
          kind: 'link',
          fields: { ...what, enabled: enabled ? 'false' : 'true', ...(as && { as }) },
        })}
      </li>`;
    const form = mail.forms.find((f) => f.formId === formId);
    const state =
      mail.delivery === 'on'
        ? html`<p data-field="submission-mail">
            New submissions are emailed to <strong>${mail.email}</strong>.
          </p>`
        : html`<p data-field="submission-mail" data-delivery="${mail.delivery}">
              <strong>Email: not sent</strong> — ${MAIL_NOT_SENT[mail.delivery]}.
            </p>
            <p class="small">
              ${
                mail.delivery === 'no_mail_server'
                  ? person.isOperator
                    ? html`You run this instance: to send mail, give it a mail server (<code>SMTP_URL</code>,
                        <a href="/docs/guide#mail" data-field="mail-setup">how to set up mail</a>). Until then
                        its mail waits in the <a href="/operator/outbox">outbox</a>.`
                    : 'Only the people who run this instance can set one up.'
                  : mail.delivery === 'no_email'
                    ? 'Mail goes to your account’s email address.'
                    : html`<a href="/home#me">Verify your email address</a> on your home page.`
              }
              New messages show here and on your <a href="/home">home page</a> either way.
            </p>`;
    return card(
      'Email about new submissions',
      html`${state}
        <p class="small muted">
          An email goes for a submission while both this form and the site it came through are on. After one,
          the next submissions to this form wait ${Math.round((mail.quietSeconds ?? 600) / 60)} minutes and
          come together in one email.
        </p>
        <ul class="plain">
          ${form ? toggle({ formId }, `This form (${form.name})`, form.enabled) : ''}
          ${mail.sites.map((site) => toggle({ siteId: site.siteId }, `Site “${site.title}”`, site.enabled))}
        </ul>`,
      { id: 'submission-mail' },
    );
  }

  r.post('/builder/forms/:formId/mail', ...posts, async (req, res) => {
    const person = await postingPerson(ctx, req, res);
    const formId = person && formIdOf(req, res);
    if (!person || !formId) return;
    const as = actingAs(req);
    const body = req.body as FormBody;
    const which = str(body, 'siteId') ? { siteId: str(body, 'siteId') } : { formId: str(body, 'formId') };
    const done = await attempt(() =>
      run(setSubmissionMail, { ...target(as), ...which, enabled: str(body, 'enabled') === 'true' }, person),
    );
    if (!done.ok) return formPage(req, res, person, formId, done.error);
    redirectWithNotice(res, href(`/builder/forms/${formId}`, as), 'mailset');
  });

  const formIdOf = (req: Request, res: Response) => {
    const id = req.params.formId;
    if (isUuid(id)) return id;
    res.redirect(303, '/builder/forms');
    return null;
  };

  r.get('/builder/forms/:formId', async (req, res) => {
    const person = await requirePerson(ctx, req, res);
    const formId = person && formIdOf(req, res);
    if (person && formId) await formPage(req, res, person, formId);
  });

  r.post('/builder/forms/:formId', ...posts, async (req, res) => {
    const person = await postingPerson(ctx, req, res);
    const formId = person && formIdOf(req, res);
    if (!person || !formId) return;
    const as = actingAs(req);
    const body = req.body as FormBody;
    const success = str(body, 'successMessage').trim();
    const done = await attempt(() =>
      run(
        updateForm,
        {
          ...target(as),
          formId,
          name: str(body, 'name'),
          fields: fieldsFromRows(body),
          ...(success && { successMessage: success }),
        },
        person,
      ),
    );
    if (!done.ok) return formPage(req, res, person, formId, done.error);
    redirectWithNotice(res, href(`/builder/forms/${formId}`, as), 'formsaved');
  });

  r.post('/builder/forms/:formId/delete', ...posts, async (req, res) => {
    const person = await postingPerson(ctx, req, res);
    const formId = person && formIdOf(req, res);
    if (!person || !formId) return;
    const as = actingAs(req);
    const done = await attempt(() => run(deleteForm, { ...target(as), formId }, person));
    if (!done.ok) return formPage(req, res, person, formId, done.error);
    redirectWithNotice(res, href('/builder/forms', as), 'formdeleted');
  });

  r.post('/builder/forms/:formId/submissions/delete', ...posts, async (req, res) => {
    const person = await postingPerson(ctx, req, res);
    const formId = person && formIdOf(req, res);
    if (!person || !formId) return;
    const as = actingAs(req);
    const submissionId = str(req.body as FormBody, 'submissionId');
    const done = await attempt(() => run(deleteSubmission, { ...target(as), formId, submissionId }, person));
    if (!done.ok) return formPage(req, res, person, formId, done.error);
    redirectWithNotice(res, href(`/builder/forms/${formId}`, as), 'submissiondeleted');
  });

  return r;
}
