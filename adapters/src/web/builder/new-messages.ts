// What visitors sent that the owner has not seen yet, by site, in words and with where to read it: the
// home page and the sites list say it beside each site. "New" is the forms' seen marker and nothing else
// (list_forms' unreadCount and unreadBySite, docs/builder.md#unread).
import type { Html } from '../html.js';
import { html } from '../html.js';
import { href } from './studio-support.js';

/** A form as list_forms answers it: the parts that say what is new. */
export interface FormUnread {
  formId: string;
  name: string;
  unreadCount: number;
  unreadBySite: readonly { siteId: string; count: number }[];
  /** The persona it is a form of (the builder's `as`), on a page that lists several owners' forms. */
  as?: string | undefined;
}

/** New messages of one site (or of all sites): how many, and through which forms. */
export interface NewMessages {
  count: number;
  forms: { formId: string; name: string; count: number; as?: string | undefined }[];
}

/** The new messages of each site they came through, by siteId; a site with none is absent. */
export function newMessagesBySite(forms: readonly FormUnread[]): Map<string, NewMessages> {
  const bySite = new Map<string, NewMessages>();
  for (const f of forms)
    for (const { siteId, count } of f.unreadBySite) {
      const m = bySite.get(siteId) ?? { count: 0, forms: [] };
      m.count += count;
      m.forms.push({ formId: f.formId, name: f.name, count, as: f.as });
      bySite.set(siteId, m);
    }
  return bySite;
}

/** Every new message of an owner's forms, whatever site they came through. */
export function allNewMessages(forms: readonly FormUnread[]): NewMessages {
  const withNew = forms.filter((f) => f.unreadCount > 0);
  return {
    count: withNew.reduce((n, f) => n + f.unreadCount, 0),
    forms: withNew.map((f) => ({ formId: f.formId, name: f.name, count: f.unreadCount, as: f.as })),
  };
}

export const messagesWords = (n: number) => (n === 1 ? '1 new message' : `${n} new messages`);

/**
 * Where to read them: the form's submissions when one form holds them all, else the forms list (of `as`,
 * the persona acted for, or of the form's own owner when it says so).
 */
export function messagesHref(m: NewMessages, as?: string): string {
  const [only, ...more] = m.forms;
  return only && more.length === 0
    ? href(`/builder/forms/${only.formId}`, only.as ?? as)
    : href('/builder/forms', as ?? (new Set(m.forms.map((f) => f.as)).size === 1 ? only?.as : undefined));
}

/** "1 new message" as a link to where it is read, on its own line in a site's row; nothing when none. */
export function newMessagesLink(
  m: NewMessages | undefined,
  as: string | undefined,
  siteTitle: string,
): Html | '' {
  if (!m || m.count === 0) return '';
  return html`<p class="new-messages">
    <a href="${messagesHref(m, as)}" data-field="site-new-messages"
      >${messagesWords(m.count)}<span class="visually-hidden"> on ${siteTitle}</span></a
    >
  </p>`;
}
