// The transactional emails this instance sends (docs/mail.md#templates). A requester names a template and
// gives only the variables it declares, as plain text; the instance renders the subject, the text and
// the HTML itself, escaping every variable, so no requester ever supplies markup.
import { z } from 'zod';

/** Characters of a short variable (a name, a title) and of the notification's body. */
export const MAIL_SHORT_VARIABLE_CHARS = 120;
export const MAIL_BODY_VARIABLE_CHARS = 2000;
/** Characters of a link variable. */
export const MAIL_LINK_CHARS = 2000;
/** Characters of a form submission's fields as one mail shows them (each value is cut before this). */
export const MAIL_FIELDS_VARIABLE_CHARS = 8000;

const shortText = z
  .string()
  .trim()
  .min(1)
  .max(MAIL_SHORT_VARIABLE_CHARS)
  // One line: a header-like value never carries a line break.
  // eslint-disable-next-line no-control-regex -- control characters are what it refuses
  .regex(/^[^\r\n\u0000-\u001f\u007f]*$/, 'one line of text, no control characters');
const bodyText = z
  .string()
  .trim()
  .min(1)
  .max(MAIL_BODY_VARIABLE_CHARS)
  // eslint-disable-next-line no-control-regex -- control characters are what it refuses
  .regex(/^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]*$/, 'plain text, no control characters');
const fieldsText = z
  .string()
  .min(1)
  .max(MAIL_FIELDS_VARIABLE_CHARS)
  // eslint-disable-next-line no-control-regex -- control characters are what it refuses
  .regex(/^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]*$/, 'plain text, no control characters');
const link = z
  .string()
  .max(MAIL_LINK_CHARS)
  .url()
  .refine((v) => /^https?:\/\//i.test(v), 'an http or https URL');

/** Who may ask for a template: a registered peer, this instance itself (its own accounts), or both. */
type Requesters = 'peer' | 'instance';

interface TemplateDefinition<S extends z.ZodType<Record<string, string | undefined>>> {
  name: string;
  description: string;
  requesters: readonly Requesters[];
  variables: S;
  /** The variables that are links: each must point at the requester's own origin. */
  links: readonly string[];
  /**
   * Only the link variables become links in the HTML: the rest may hold what a stranger typed (a form
   * submission), whose addresses stay plain text.
   */
  onlyOwnLinks?: boolean;
  render(v: z.infer<S>, instanceName: string): { subject: string; text: string };
}

const define = <S extends z.ZodType<Record<string, string | undefined>>>(t: TemplateDefinition<S>) => t;
type AnyTemplate = TemplateDefinition<z.ZodType<Record<string, string | undefined>>>;

export const MAIL_TEMPLATES = {
  verification: define({
    name: 'verification',
    description: 'Confirm an email address: a greeting and the confirmation link.',
    requesters: ['peer', 'instance'],
    variables: z.strictObject({ name: shortText.optional(), link }),
    links: ['link'],
    render: (v, instance) => ({
      subject: `Confirm your email address for ${instance}`,
      text:
        `${v.name ? `Hello ${v.name},` : 'Hello,'}\n\n` +
        `Please confirm this email address by opening the link below:\n\n${v.link}\n\n` +
        'If you did not ask for this, you can ignore this message.\n',
    }),
  }),
  sign_in_link: define({
    name: 'sign_in_link',
    description: 'A one-time sign-in link.',
    requesters: ['peer'],
    variables: z.strictObject({ name: shortText.optional(), link }),
    links: ['link'],
    render: (v, instance) => ({
      subject: `Your sign-in link for ${instance}`,
      text:
        `${v.name ? `Hello ${v.name},` : 'Hello,'}\n\n` +
        `Open this link to sign in:\n\n${v.link}\n\n` +
        'If you did not ask to sign in, you can ignore this message.\n',
    }),
  }),
  notification: define({
    name: 'notification',
    description: 'A short notification: a title, a plain-text body and an optional link.',
    requesters: ['peer'],
    variables: z.strictObject({ title: shortText, body: bodyText, link: link.optional() }),
    links: ['link'],
    render: (v, instance) => ({
      subject: `${v.title} (${instance})`,
      text: `${v.body}\n${v.link ? `\n${v.link}\n` : ''}`,
    }),
  }),
  password_reset: define({
    name: 'password_reset',
    description: 'A password reset link for a local account of this instance.',
    requesters: ['instance'],
    variables: z.strictObject({ link }),
    links: ['link'],
    render: (v, instance) => ({
      subject: `Reset your password for ${instance}`,
      text:
        'Someone asked to reset the password of your account. Open this link to choose a new one:\n\n' +
        `${v.link}\n\n` +
        'If it was not you, ignore this message: your password stays as it is.\n',
    }),
  }),
  password_held_at_home: define({
    name: 'password_held_at_home',
    description:
      'The answer to a reset request for an account whose password its home (global) instance holds: a link to ' +
      'that instance’s own reset page, never a local reset link (docs/sso.md#password-reset).',
    requesters: ['instance'],
    // The link points at the registered global peer's origin, which the request checks (docs/mail.md).
    variables: z.strictObject({ link }),
    links: ['link'],
    render: (v, instance) => ({
      subject: `Resetting your password for ${instance}`,
      text:
        `Someone asked to reset the password of your account on ${instance}. Your password for it is held by ` +
        'your home instance, which checks it when you sign in, so it can only be changed there. Open this link ' +
        `to reset it at your home instance:\n\n${v.link}\n\n` +
        'If it was not you, ignore this message: your password stays as it is.\n',
    }),
  }),
  form_submission: define({
    name: 'form_submission',
    description:
      'New submissions to a form on one of the recipient’s sites (docs/builder.md#submission-mail): the site, the ' +
      'form, how many, the fields of the newest as plain text, and the link to the submissions page.',
    requesters: ['instance'],
    variables: z.strictObject({
      site: shortText,
      form: shortText,
      count: z.string().regex(/^[1-9][0-9]{0,6}$/),
      since: shortText.optional(),
      fields: fieldsText.optional(),
      link,
    }),
    links: ['link'],
    onlyOwnLinks: true,
    render: (v, instance) => {
      const one = v.count === '1';
      return {
        subject: one
          ? `New form submission: ${v.form} on ${v.site}`
          : `${v.count} new form submissions: ${v.form} on ${v.site}`,
        text:
          (one
            ? `A visitor sent the form “${v.form}” on your site “${v.site}”.\n\n`
            : `${v.count} visitors sent the form “${v.form}” on your site “${v.site}”` +
              `${v.since ? ` since ${v.since}` : ''}.\n\n`) +
          (v.fields
            ? `${one ? 'What they typed' : 'What the newest one typed'}, as plain text. It comes from a stranger: ` +
              `${instance} did not check it, so do not follow instructions or links in it that you did not expect.\n\n` +
              `----------------------------------------\n${v.fields}\n----------------------------------------\n\n`
            : '') +
          `See ${one ? 'it' : 'them all'} on the submissions page:\n${v.link}\n\n` +
          'You get this mail because mail about new submissions is on for this site and form; ' +
          'you can turn it off on that page.\n',
      };
    },
  }),
} as const;

export type MailTemplateName = keyof typeof MAIL_TEMPLATES;
export const MAIL_TEMPLATE_NAMES = Object.keys(MAIL_TEMPLATES) as MailTemplateName[];

export const isMailTemplateName = (name: string): name is MailTemplateName =>
  Object.prototype.hasOwnProperty.call(MAIL_TEMPLATES, name);

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

/**
 * The message a template makes of already-checked variables. The HTML is the text, escaped, with its
 * links made clickable: nothing of a variable is ever markup.
 */
export function renderMail(
  template: MailTemplateName,
  variables: Record<string, string>,
  instanceName: string,
): RenderedMail {
  const t = MAIL_TEMPLATES[template] as unknown as AnyTemplate;
  const { subject, text } = t.render(t.variables.parse(variables), instanceName);
  // A template holding a stranger's text links only its own link variables (already checked URLs).
  const own = new Set(t.links.flatMap((k) => (variables[k] ? [escapeHtml(variables[k])] : [])));
  const html =
    '<!doctype html><html><body><div style="font-family:sans-serif;white-space:pre-wrap">' +
    escapeHtml(text).replace(/https?:\/\/[^\s<]+/g, (url) =>
      t.onlyOwnLinks && !own.has(url) ? url : `<a href="${url}">${url}</a>`,
    ) +
    '</div></body></html>';
  return { subject: subject.replace(/[\r\n]+/g, ' '), text, html };
}

/** The variables checked against the template, or the issues found. */
export function checkMailVariables(
  template: MailTemplateName,
  variables: unknown,
): { ok: true; variables: Record<string, string>; links: string[] } | { ok: false; issues: string[] } {
  const t = MAIL_TEMPLATES[template] as unknown as AnyTemplate;
  const parsed = t.variables.safeParse(variables);
  if (!parsed.success)
    return {
      ok: false,
      issues: parsed.error.issues.map((i) => `${i.path.join('.') || '(variables)'}: ${i.message}`),
    };
  const vars = parsed.data as Record<string, string | undefined>;
  const clean: Record<string, string> = {};
  for (const [k, v] of Object.entries(vars)) if (v !== undefined) clean[k] = v;
  return { ok: true, variables: clean, links: t.links.flatMap((k) => (clean[k] ? [clean[k]] : [])) };
}

export const templateAllows = (template: MailTemplateName, requester: Requesters): boolean =>
  (MAIL_TEMPLATES[template].requesters as readonly string[]).includes(requester);
