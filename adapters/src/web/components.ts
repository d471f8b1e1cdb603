// The components every page is made of (docs/web.md#components): buttons, form fields with their
// errors, cards, tables, notices, empty states, the once-shown secret, and a POST button with its CSRF
// token. Each returns Html; text arguments are escaped.
import { momentWords, relativeWords, type DomainError } from '@tributary/domain';
import { errorWords } from './error-words.js';
import { readerClock } from './reader-zone.js';
import { html, raw, type Html, type HtmlValue } from './html.js';

/** A hidden CSRF field for a form posted by a signed-in person (`csrfFor` in page-forms.ts). */
export const csrfField = (csrf: string) => html`<input type="hidden" name="csrf" value="${csrf}" />`;

export interface FieldOptions {
  name: string;
  label: string;
  type?: string;
  value?: string | undefined;
  hint?: string | undefined;
  /** The message shown under the field, which is then marked invalid. */
  error?: string | undefined;
  required?: boolean;
  autocomplete?: string;
  placeholder?: string;
  maxlength?: number;
  minlength?: number;
  pattern?: string;
  /** Other attributes, written as given (code-written only). */
  attrs?: string;
}

let fieldSeq = 0;
const fieldId = (name: string) =>
  `f-${name.replace(/[^a-zA-Z0-9_-]/g, '-')}-${(fieldSeq = (fieldSeq + 1) % 1e6)}`;

/** A labelled input with its hint and error, wired up with aria-describedby / aria-invalid. */
export function field(o: FieldOptions): Html {
  const id = fieldId(o.name);
  const described = [o.hint && `${id}-hint`, o.error && `${id}-error`].filter(Boolean).join(' ');
  const attrs = [
    o.required ? ' required' : '',
    o.autocomplete ? ` autocomplete="${o.autocomplete}"` : '',
    o.maxlength ? ` maxlength="${o.maxlength}"` : '',
    o.minlength ? ` minlength="${o.minlength}"` : '',
    described ? ` aria-describedby="${described}"` : '',
    o.error ? ' aria-invalid="true"' : '',
    o.attrs ? ` ${o.attrs}` : '',
  ].join('');
  const input =
    o.type === 'textarea'
      ? html`<textarea id="${id}" name="${o.name}" ${raw(attrs)}>${o.value ?? ''}</textarea>`
      : html`<input
          id="${id}"
          name="${o.name}"
          type="${o.type ?? 'text'}"
          ${o.value !== undefined ? html` value="${o.value}"` : ''}${o.placeholder ? html` placeholder="${o.placeholder}"` : ''}${o.pattern ? html` pattern="${o.pattern}"` : ''}${raw(attrs)}
        />`;
  return html`<div class="field${o.error ? ' has-error' : ''}">
    <label for="${id}">${o.label}</label>
    ${o.hint ? html`<span class="hint" id="${id}-hint">${o.hint}</span>` : ''} ${input}
    ${o.error ? html`<span class="error" id="${id}-error">${o.error}</span>` : ''}
  </div>`;
}

/** A labelled `<select>`; `options` are [value, label] pairs. */
export function selectField(o: {
  name: string;
  label: string;
  options: readonly (readonly [string, string])[];
  value?: string | undefined;
  hint?: string | undefined;
  error?: string | undefined;
}): Html {
  const id = fieldId(o.name);
  return html`<div class="field${o.error ? ' has-error' : ''}">
    <label for="${id}">${o.label}</label>
    ${o.hint ? html`<span class="hint" id="${id}-hint">${o.hint}</span>` : ''}
    <select id="${id}" name="${o.name}" ${o.hint ? raw(` aria-describedby="${id}-hint"`) : ''}>
      ${o.options.map(
        ([v, l]) => html`<option value="${v}" ${v === o.value ? raw(' selected') : ''}>${l}</option>`,
      )}
    </select>
    ${o.error ? html`<span class="error">${o.error}</span>` : ''}
  </div>`;
}

/** A group of checkboxes (`name` repeated), each with a label and an optional note. */
export function checkboxes(o: {
  name: string;
  legend: string;
  hint?: string;
  items: readonly { value: string; label: string; note?: string; checked?: boolean }[];
  /** Labels in the monospace face (scope names, codes). */
  mono?: boolean;
  error?: string | undefined;
}): Html {
  return html`<fieldset class="field${o.error ? ' has-error' : ''}">
    <legend>${o.legend}</legend>
    ${o.hint ? html`<span class="hint">${o.hint}</span>` : ''}
    <div class="checks">
      ${o.items.map(
        (i) =>
          html`<label class="check"
            ><input
              type="checkbox"
              name="${o.name}"
              value="${i.value}"
              ${i.checked ? raw(' checked') : ''}
            /><span
              >${o.mono ? html`<span class="scope">${i.label}</span>` : i.label}${i.note ? html`<br /><span class="small muted">${i.note}</span>` : ''}</span
            ></label
          >`,
      )}
    </div>
    ${o.error ? html`<span class="error">${o.error}</span>` : ''}
  </fieldset>`;
}

export type ButtonKind = 'primary' | 'secondary' | 'danger' | 'link';
const btnClass = (k: ButtonKind = 'secondary') => (k === 'secondary' ? 'btn' : `btn btn-${k}`);

export const button = (label: HtmlValue, o: { kind?: ButtonKind; name?: string; value?: string } = {}) =>
  html`<button
    type="submit"
    class="${btnClass(o.kind)}"
    ${o.name ? html` name="${o.name}" value="${o.value ?? ''}"` : ''}
  >
    ${label}
  </button>`;

export const linkButton = (href: string, label: HtmlValue, kind: ButtonKind = 'secondary') =>
  html`<a class="${btnClass(kind)}" href="${href}">${label}</a>`;

/**
 * A one-button form that POSTs `fields` with the CSRF token, e.g. Revoke or Delete; `confirm` asks
 * first when scripts run. Forms post and redirect, so it works without JavaScript.
 */
export function postButton(o: {
  action: string;
  csrf: string;
  label: HtmlValue;
  fields?: Record<string, string>;
  kind?: ButtonKind;
  confirm?: string;
}): Html {
  return html`<form
    class="inline"
    method="post"
    action="${o.action}"
    ${o.confirm ? html` data-confirm="${o.confirm}"` : ''}
  >
    ${csrfField(o.csrf)}${Object.entries(o.fields ?? {}).map(
      ([k, v]) => html`<input type="hidden" name="${k}" value="${v}" />`,
    )}${button(o.label, { kind: o.kind ?? 'secondary' })}
  </form>`;
}

export const card = (title: HtmlValue, body: HtmlValue, o: { id?: string; level?: 2 | 3 } = {}) =>
  html`<section
    class="card"
    ${o.id ? html` id="${o.id}"` : ''}${o.id ? html` aria-labelledby="${o.id}-h"` : ''}
  >
    ${
      (o.level ?? 2) === 2
        ? html`<h2${o.id ? html` id="${o.id}-h"` : ''}>${title}</h2>`
        : html`<h3${o.id ? html` id="${o.id}-h"` : ''}>${title}</h3>`
    }${body}
  </section>`;

export type NoticeKind = 'info' | 'success' | 'warning' | 'error';
/** A notice; errors and successes are announced (role alert / status). */
export const notice = (kind: NoticeKind, body: HtmlValue) =>
  html`<div
    class="notice notice-${kind}"
    ${raw(kind === 'error' ? ' role="alert"' : kind === 'success' ? ' role="status"' : '')}
  >
    ${body}
  </div>`;

const sentence = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * A domain error (what a REST route would answer as problem+json) as a readable notice: what went wrong
 * and what to do in words (error-words.ts; the API's message for a code without words), the code in
 * small print. `lead` goes first ("Not saved.").
 */
export function problemNotice(
  e: Pick<DomainError, 'code' | 'message'> & { details?: Record<string, unknown> | undefined },
  lead?: string,
): Html {
  const words = errorWords(e);
  const first = lead ?? (words ? '' : 'That did not work.');
  // A code's message is written to follow a colon (lower-case); after a full stop it is a sentence.
  const text = words ?? (first.endsWith('.') ? sentence(e.message) : e.message);
  return notice(
    'error',
    html`<p>
        ${first ? html`<strong>${first}</strong> ` : ''}${words ? html`<strong>${text}</strong>` : text}
      </p>
      <p class="small muted">Error code: <code data-error-code="${e.code}">${e.code}</code></p>`,
  );
}

export const emptyState = (text: HtmlValue) => html`<div class="empty">${text}</div>`;

/** A table that scrolls sideways on a narrow screen; `caption` names it for screen readers. */
export function table(o: {
  caption: string;
  head: readonly HtmlValue[];
  rows: readonly (readonly HtmlValue[])[];
  empty?: HtmlValue;
  /** Show the caption (else it is for screen readers only). */
  showCaption?: boolean;
  /** On a phone, each row as a card of labelled cells, so no column is out of sight to the right. */
  stack?: boolean;
}): Html {
  if (!o.rows.length && o.empty !== undefined) return emptyState(o.empty);
  const label = (i: number) => {
    const h = o.head[i];
    return o.stack && typeof h === 'string' && h ? html` data-label="${h}"` : '';
  };
  // A group, not a region: focusable (it scrolls) and named, but no landmark, so a table under a section
  // headed with its own caption does not make two landmarks of one name.
  return html`<div class="table-wrap${o.stack ? ' table-stack' : ''}" tabindex="0" role="group" aria-label="${o.caption}"><table><caption${o.showCaption ? '' : raw(' class="visually-hidden"')}>${o.caption}</caption>
<thead><tr>${o.head.map((h) => html`<th scope="col">${h === '' ? html`<span class="visually-hidden">Actions</span>` : h}</th>`)}</tr></thead>
<tbody>${o.rows.map(
    (r) =>
      html`<tr>
        ${r.map((c, i) => html`<td${label(i)}>${c}</td>`)}
      </tr>`,
  )}</tbody></table></div>`;
}

export type BadgeKind = 'neutral' | 'ok' | 'warn' | 'danger';
export const badge = (text: HtmlValue, kind: BadgeKind = 'neutral') =>
  html`<span class="badge${kind === 'neutral' ? '' : ` badge-${kind}`}">${text}</span>`;

/**
 * An email address that wraps, when it must, before its '@' rather than inside a word (<wbr>; the
 * .email rule in app.css keeps the address's parts whole on a wide screen).
 */
export function emailText(address: string): Html {
  const at = address.lastIndexOf('@');
  return at > 0
    ? html`<span class="email">${address.slice(0, at)}<wbr />${address.slice(at)}</span>`
    : html`<span class="email">${address}</span>`;
}

/** A definition list of label → value. */
export const keyValues = (pairs: readonly (readonly [HtmlValue, HtmlValue])[]) =>
  html`<dl class="kv">
    ${pairs.map(
      ([k, v]) =>
        html`<dt>${k}</dt>
          <dd>${v}</dd>`,
    )}
  </dl>`;

/**
 * A secret shown once (a new token): the value in a box, a copy button (when scripts run) and the
 * warning that it will not be shown again.
 */
export function secretBox(o: { id: string; label: string; value: string; note?: HtmlValue }): Html {
  return html`<section class="secret" aria-labelledby="${o.id}-label">
    <p id="${o.id}-label"><strong>${o.label}</strong></p>
    <pre id="${o.id}" data-secret>${o.value}</pre>
    <p class="cluster">
      <button type="button" class="btn" data-copy="${o.id}" hidden>Copy</button>
      <span class="small">${o.note ?? 'Copy it now: it is shown only once and cannot be shown again.'}</span>
    </p>
  </section>`;
}

/**
 * A moment for a person: "6 Dec 2026, 15:20" in the reader's time zone (reader-zone.ts), or
 * "6 Dec 2026, 15:20 UTC" while their zone is not known, in a <time> whose datetime is the exact instant
 * and whose title is the UTC form. With `ago` (lists) "· 5 minutes ago" follows, up to 30 days back.
 * `never` is shown for null.
 */
export function when(iso: string | null | undefined, never = 'never', o: { ago?: boolean } = {}): Html {
  if (!iso) return html`${never}`;
  const clock = readerClock();
  const relative = o.ago ? relativeWords(iso, clock.now) : null;
  return html`<time
      datetime="${iso}"
      data-zone="${clock.known ? clock.zone : ''}"
      title="${momentWords(iso, 'UTC', { sayZone: true })}"
      >${momentWords(iso, clock.zone, { sayZone: !clock.known })}</time
    >${relative ? html`<span class="ago"> · ${relative}</span>` : ''}`;
}

/**
 * From one moment to another, for a line that stands for several events: "6 Dec 2026, 20:30–20:34" on
 * one day, both in full across days, one moment when they read the same.
 */
export function whenRange(from: string, to: string): Html {
  const clock = readerClock();
  const say = { sayZone: !clock.known };
  const [a, b] = [momentWords(from, clock.zone, say), momentWords(to, clock.zone, say)];
  if (a === b) return when(to);
  const sameDay = a.split(', ')[0] === b.split(', ')[0];
  const zone = clock.known ? clock.zone : '';
  const utc = (iso: string) => momentWords(iso, 'UTC', { sayZone: true });
  // On one day the zone is said once, at the end.
  const start = sameDay ? momentWords(from, clock.zone) : a;
  return html`<time datetime="${from}" data-zone="${zone}" title="${utc(from)}">${start}</time>–<time
      datetime="${to}"
      data-zone="${zone}"
      title="${utc(to)}"
      ${sameDay ? raw(' data-clock') : ''}
      >${sameDay ? b.slice(b.indexOf(', ') + 2) : b}</time
    >`;
}

/** A moment as plain text in the reader's zone (for labels and titles, where no <time> can go). */
export function whenText(iso: string): string {
  const clock = readerClock();
  return momentWords(iso, clock.zone, { sayZone: !clock.known });
}
