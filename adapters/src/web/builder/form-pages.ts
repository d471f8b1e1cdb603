// The builder's forms pages: the owner's forms (create, edit the fields), and each form's submissions
// (read page by page, export as CSV through GET /api/builder/forms/submissions.csv, delete one). The
// field editor is rows of plain inputs: a row with an empty label is left out, so adding a field is
// filling in an empty row, and removing one is clearing its label.
import { FORM_FIELD_TYPES, type DomainError, type FormField } from '@tributary/domain';
import {
  createForm,
  deleteForm,
  deleteSubmission,
  listForms,
  listSubmissions,
  updateForm,
} from '@tributary/services';
import { Router, type Request, type Response } from 'express';
import type { HttpContext } from '../../http/index.js';
import {
  badge,
  button,
  card,
  csrfField,
  field,
  linkButton,
  postButton,
  problemNotice,
  table,
  when,
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
};
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
        empty: 'No forms yet.',
        rows: forms.forms.map((f) => [
          html`<a href="${href(`/builder/forms/${f.formId}`, as)}">${f.name}</a>`,
          String(f.fields.length),
          html`<span data-submissions="${f.formId}">${String(f.submissionCount)}</span>`,
          when(f.updatedAt),
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
      html`<form method="post" action="/builder/forms" class="stack">
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
      { title: 'Forms and submissions', current: '/builder', body },
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
    const made = await attempt(() =>
      run(
        createForm,
        {
          ...target(as),
          name: str(body, 'name'),
          fields: fieldsFromRows(body),
          ...(success && { successMessage: success }),
        },
        person,
      ),
    );
    if (!made.ok) return formsPage(req, res, person, made.error);
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
    const [forms, subs] = await Promise.all([
      run(listForms, target(as), person),
      attempt(() =>
        run(listSubmissions, { ...target(as), formId, limit: 50, ...(cursor && { cursor }) }, person),
      ),
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
    const csv = `/api/builder/forms/submissions.csv?${new URLSearchParams({ formId, ...(as && { targetAgentId: as }) }).toString()}`;
    const body = html`${noticeOf(req)}${error ? problemNotice(error) : ''} ${tabsOf(as)}
      <p class="small"><a href="${href('/builder/forms', as)}">All forms</a></p>
      ${card(
        'Submissions',
        html`<p class="cluster">
            <span>${badge(`${form.submissionCount} received`)}</span> ${linkButton(csv, 'Download CSV')}
          </p>
          ${table({
            caption: `Submissions to ${form.name}, newest first`,
            head: ['Received', ...form.fields.map((f) => f.label), ''],
            empty: 'No submissions yet. They arrive when visitors send the form on the published site.',
            rows: subs.value.submissions.map((s) => [
              when(s.receivedAt),
              ...form.fields.map((f) => {
                const v = s.values[f.name];
                return html`<span class="cell"
                  >${v === undefined ? '' : typeof v === 'boolean' ? (v ? 'yes' : 'no') : String(v)}</span
                >`;
              }),
              postButton({
                action: `/builder/forms/${formId}/submissions/delete`,
                csrf: person.csrf,
                label: html`Delete<span class="visually-hidden"> the submission of ${s.receivedAt}</span>`,
                kind: 'danger',
                fields: { submissionId: s.submissionId, ...(as && { as }) },
                confirm: 'Delete this submission?',
              }),
            ]),
          })}
          ${subs.value.nextCursor ? html`<p><a href="${href(`/builder/forms/${formId}`, as, { cursor: subs.value.nextCursor })}">Older submissions</a></p>` : ''}`,
        { id: 'submissions' },
      )}
      ${card(
        'Edit the form',
        html`<form method="post" action="/builder/forms/${formId}" class="stack">
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
        lede: 'A form of yours: what visitors sent, and its fields.',
      },
      error ? 400 : 200,
    );
  }

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
