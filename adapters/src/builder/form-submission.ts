// The public end of a form: POST /_forms/<formId> on a published site's origin (and under
// /sites/<label>/_forms/<formId>), the site server's form hook once it has found the site (and refused a
// suspended one). A urlencoded body of at most BUILDER_FORM_MAX_BODY_BYTES, run as the catalogue's
// svc.builder.submit_form through the pipeline. A submission kept (or a honeypot's) is answered 303 See
// Other to GET /_forms/<formId>/sent, the thank-you page, so Back and reload never post it again
// (POST/redirect/GET); a refused one is answered in place with the form again, filled with what the
// visitor typed. Every answer is an HTML page carrying the headers of every site answer (no script, no
// cookie) inside the site's own frame: its stylesheet, header, navigation and footer, taken from the
// published home page (docs/builder.md#forms-and-submissions).
import { FIELD_NAME, FORM_LIMITS, isDomainError, type FieldError } from '@tributary/domain';
import {
  execute,
  formHtml,
  renderFormOf,
  submitForm,
  type FormFill,
  type Services,
} from '@tributary/services';
import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import proxyAddr from 'proxy-addr';
import { addressKey, drainBody, readBoundedBody } from '../http/index.js';
import { esc } from '../web/index.js';
import { securityHeaders } from './site-server/site-headers.js';
import type { FormSubmissionHook, FormSubmissionTarget } from './site-server/site-server.js';

/** The site's root on the application's host (`/sites/<label>`), from a form address under it. */
const SITES_ROOT = /^(\/sites\/[^/]+)\/_forms\//;
/** How far below the site's root an answer is: `_forms/<formId>` (1) or `_forms/<formId>/sent` (2). */
type Depth = 1 | 2;

export function createFormSubmissionHook(o: {
  services: Services;
  /** BUILDER_FORM_MAX_BODY_BYTES. */
  maxBodyBytes: number;
  /**
   * Which hops' X-Forwarded-For to believe: the application's own compiled TRUST_PROXY (Express's
   * `trust proxy fn`), so a visitor's address is decided here exactly as `req.ip` is there.
   */
  trustProxy: (address: string, hop: number) => boolean;
}): FormSubmissionHook {
  // Addresses are counted by a salted digest only; the salt lives as long as the counts (this process).
  const salt = randomBytes(32);
  const clientKey = (req: IncomingMessage) =>
    createHash('sha256')
      .update(salt)
      .update(addressKey(proxyAddr(req, o.trustProxy)))
      .digest('base64url');

  const submit: FormSubmissionHook['submit'] = async (req, res, target) => {
    const root = SITES_ROOT.exec(req.url ?? '')?.[1] ?? '';
    const answer = async (
      status: number,
      title: string,
      body: string,
      extra: string[] = [],
      cache?: string,
    ) =>
      page(req, res, {
        root,
        status,
        title,
        body,
        extra,
        cache,
        frame: await frameOf(o.services, target, 1),
      });
    const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (type !== 'application/x-www-form-urlencoded') {
      drainBody(req);
      return answer(415, 'Not sent as a form', '<p>Send the form from its page.</p>');
    }
    const body = await readBoundedBody(req, o.maxBodyBytes).then((b) => b && b.toString('utf8'));
    if (body === null)
      return answer(413, 'Too much to send', tooLarge(o.maxBodyBytes), ['Connection', 'close']);

    const values = formValues(body);
    try {
      await execute(
        o.services,
        submitForm,
        { siteId: target.siteId, formId: target.formId, values, clientKey: clientKey(req) },
        { kind: 'anonymous' },
        'http',
      );
      // POST/redirect/GET: the thank-you page has an address of its own, which carries nothing the
      // visitor typed; going back to it or reloading it sends nothing again.
      res.writeHead(303, [
        ...securityHeaders(root),
        'Location',
        `${root}/_forms/${encodeURIComponent(target.formId)}/sent`,
        'Content-Length',
        '0',
        'Cache-Control',
        'no-store',
      ]);
      res.end();
      return;
    } catch (e) {
      if (!isDomainError(e)) throw e;
      switch (e.code) {
        case 'input.invalid':
        case 'builder.form_not_found':
          return answer(404, 'Form not found', '<p>This form does not take submissions.</p>');
        case 'builder.site_suspended':
          return answer(451, 'Unavailable', '<p>This site is suspended.</p>');
        case 'builder.submission_too_large':
          return answer(413, 'Too much to send', tooLarge(FORM_LIMITS.submissionBytes));
        case 'builder.submission_rate_limited':
          return answer(429, 'Please wait', '<p>Too many submissions from here. Try again later.</p>', [
            'Retry-After',
            String(Number(e.details?.retryAfter ?? 60)),
          ]);
        case 'builder.submission_invalid': {
          const problems = (e.details?.fields ?? []) as FieldError[];
          return answer(
            400,
            'Please check the form',
            await formAgain(o.services, target.formId, values, problems),
            [],
            'private, no-cache',
          );
        }
        case 'instance.not_initialized':
          return answer(503, 'Try again shortly', '<p>The site cannot take forms right now.</p>', [
            'Retry-After',
            '5',
          ]);
        default:
          throw e;
      }
    }
  };

  /** The thank-you page: the form's own message while the site's published version holds the form. */
  const sent: FormSubmissionHook['sent'] = async (req, res, target) => {
    const root = SITES_ROOT.exec(req.url ?? '')?.[1] ?? '';
    const answer = async (status: number, title: string, body: string, cache: string) =>
      page(req, res, {
        root,
        status,
        title,
        body,
        extra: [],
        cache,
        frame: await frameOf(o.services, target, 2),
      });
    const read = o.services.builder.read;
    const status = await read.siteFormStatus(target.siteId, target.formId);
    const form = status.state === 'accepting' ? await read.form(target.formId) : null;
    if (!form)
      return answer(404, 'Form not found', '<p>This form does not take submissions.</p>', 'no-store');
    // The same page for everyone (nothing of a submission is in it): revalidated, never stored by others.
    return answer(200, 'Thank you', `<p class="form-thanks">${esc(form.successMessage)}</p>`, 'no-cache');
  };

  return { submit, sent };
}

const REASONS: Record<FieldError['reason'], string> = {
  required: 'please fill this in',
  repeated: 'send one value only',
  too_short: 'too short',
  too_long: 'too long',
  invalid_characters: 'holds characters that are not allowed',
  not_email: 'not an email address',
  not_url: 'not a web address (http or https)',
  not_tel: 'not a phone number',
  not_number: 'not a number',
  below_min: 'too small',
  above_max: 'too large',
  not_date: 'not a date',
  not_an_option: 'not one of the choices',
};

const tooLarge = (bytes: number) => `<p>A form may send at most ${Math.floor(bytes / 1024)} KiB.</p>`;

/** The posted values by name (a repeated name gives a list); names no form field can have are dropped. */
function formValues(body: string): Record<string, string | string[]> {
  const values = new Map<string, string | string[]>();
  for (const [name, value] of new URLSearchParams(body)) {
    if (!FIELD_NAME.test(name) || name.length > FORM_LIMITS.fieldNameChars) continue;
    const prior = values.get(name);
    values.set(name, prior === undefined ? value : [...(Array.isArray(prior) ? prior : [prior]), value]);
  }
  return Object.fromEntries(values);
}

/**
 * The refusal in words above the form shown again: the visitor's values filled in (the honeypot never),
 * each problem beside its field, so nothing is typed twice. The form posts to this same address.
 */
async function formAgain(
  services: Services,
  formId: string,
  values: Record<string, string | string[]>,
  problems: readonly FieldError[],
): Promise<string> {
  const form = await services.builder.read.form(formId).catch(() => null);
  const labels = new Map((form?.fields ?? []).map((f) => [f.name, f.label]));
  const items = problems
    .map((p) => `<li>${esc(labels.get(p.field) ?? p.field)}: ${esc(REASONS[p.reason])}</li>`)
    .join('');
  const summary = `<div class="form-problems" role="alert"><p>Nothing was sent yet. Please check:</p><ul>${items}</ul></div>`;
  if (!form) return summary;
  const { website: _honeypot, ...kept } = values;
  const fill: FormFill = {
    values: kept,
    errors: new Map(problems.map((p) => [p.field, REASONS[p.reason]])),
  };
  // The answer is at <root>/_forms/<formId>: the form's own id is the relative action to post again.
  return summary + formHtml(renderFormOf(form), { action: formId, prefix: 'again', fill });
}

/** The published site's frame around an answer: everything of its home page but the main content. */
interface SiteFrame {
  /** The site's home, relative to the answer's address (`../`, `../../`). */
  home: string;
  /** The home page up to its `<main>`, links made relative to the answer's address. */
  before: string;
  /** From the end of `</main>`. */
  after: string;
  /** The site's name, from its header. */
  siteTitle: string;
}

const MAIN_OPEN = '<main id="main" class="wrap">';
const MAIN_CLOSE = '</main>';

/**
 * The frame of the version the visitor's page came from (undefined: nothing published, or a page this
 * renderer did not write). The home page's links start `./` (its root); the answer lives `depth` folders
 * down (`_forms/<formId>`, `_forms/<formId>/sent`), so they become `../` or `../../`.
 */
async function frameOf(
  services: Services,
  target: FormSubmissionTarget,
  depth: Depth,
): Promise<SiteFrame | undefined> {
  if (!target.versionId) return undefined;
  const read = services.builder.read;
  const version = await read.version(target.siteId, target.versionId).catch(() => null);
  const home = version?.manifest.find((f) => f.path === '/index.html');
  if (!home) return undefined;
  const bytes = await services.builder.blobs.get(home.sha256).catch(() => undefined);
  const text = bytes?.toString('utf8');
  const start = text?.indexOf(MAIN_OPEN) ?? -1;
  const end = text?.lastIndexOf(MAIN_CLOSE) ?? -1;
  if (!text || start < 0 || end < start) return undefined;
  const up = '../'.repeat(depth);
  const relink = (html: string) => html.replace(/(href|src)="\.\//g, `$1="${up}`);
  const siteTitle = /<a class="site-title"[^>]*>([^<]*)<\/a>/.exec(text)?.[1] ?? '';
  return {
    home: up,
    before: relink(text.slice(0, start))
      // The answer is no page of the site: its header's home link is not the current page.
      .replace(/(<a class="site-title"[^>]*?) aria-current="page"/, '$1')
      .replace(/ aria-current="page"/g, ''),
    after: relink(text.slice(end + MAIN_CLOSE.length)),
    siteTitle,
  };
}

function page(
  req: IncomingMessage,
  res: ServerResponse,
  p: {
    root: string;
    status: number;
    title: string;
    body: string;
    extra: string[];
    /** Cache-Control: `no-store` unless said (a refusal holds what the visitor typed). */
    cache?: string;
    frame: SiteFrame | undefined;
  },
) {
  const main = `<main id="main" class="wrap form-answer"><h1>${esc(p.title)}</h1>
${p.body}
<p><a href="${p.frame ? p.frame.home : esc(p.root + '/')}">Back to the site</a></p></main>`;
  const html = p.frame
    ? p.frame.before
        .replace(/<title>[^<]*<\/title>/, `<title>${esc(p.title)} – ${p.frame.siteTitle}</title>`)
        .replace('<head>', '<head>\n<meta name="robots" content="noindex">') +
      main +
      p.frame.after
    : `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${esc(p.title)}</title></head>
<body>${main}</body></html>
`;
  res.writeHead(p.status, [
    ...securityHeaders(p.root),
    'Content-Type',
    'text/html; charset=utf-8',
    'Content-Length',
    String(Buffer.byteLength(html)),
    'Cache-Control',
    p.cache ?? 'no-store',
    ...p.extra,
  ]);
  res.end(req.method === 'HEAD' ? undefined : html);
}
