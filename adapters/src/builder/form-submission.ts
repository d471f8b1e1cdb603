// The public end of a form: POST /_forms/<formId> on a published site's origin (and under
// /sites/<label>/_forms/<formId>), the site server's form hook once it has found the site (and refused a
// suspended one). A urlencoded body of at most BUILDER_FORM_MAX_BODY_BYTES, run as the catalogue's
// svc.builder.submit_form through the pipeline, answered with a plain HTML page carrying the headers of
// every site answer (no script, no cookie) and the site's own stylesheet
// (docs/builder.md#forms-and-submissions).
import { FIELD_NAME, FORM_LIMITS, isDomainError, type FieldError } from '@tributary/domain';
import { execute, submitForm, type Services } from '@tributary/services';
import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import proxyAddr from 'proxy-addr';
import { addressKey, drainBody, readBoundedBody } from '../http/index.js';
import { esc } from '../web/index.js';
import { securityHeaders } from './site-server/site-headers.js';
import type { FormSubmissionHook, FormSubmissionTarget } from './site-server/site-server.js';

/** Bytes of a refused body read and thrown away (so the client sees the answer) before hanging up. */
const SITES_ROOT = /^(\/sites\/[^/]+)\/_forms\//;
const STYLESHEET = /^\/_assets\/site\.[0-9a-f]+\.css$/;

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

  return async (req, res, target) => {
    const root = SITES_ROOT.exec(req.url ?? '')?.[1] ?? '';
    const answer = async (status: number, title: string, body: string, extra: string[] = []) =>
      page(res, { root, status, title, body, extra, stylesheet: await stylesheetOf(o.services, target) });
    const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (type !== 'application/x-www-form-urlencoded') {
      drainBody(req);
      return answer(415, 'Not sent as a form', '<p>Send the form from its page.</p>');
    }
    const body = await readBoundedBody(req, o.maxBodyBytes).then((b) => b && b.toString('utf8'));
    if (body === null)
      return answer(413, 'Too much to send', tooLarge(o.maxBodyBytes), ['Connection', 'close']);

    try {
      const { result } = await execute(
        o.services,
        submitForm,
        { siteId: target.siteId, formId: target.formId, values: formValues(body), clientKey: clientKey(req) },
        { kind: 'anonymous' },
        'http',
      );
      return answer(200, 'Thank you', `<p>${esc(result.successMessage)}</p>`);
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
          const labels = await fieldLabels(o.services, target.formId);
          const items = problems
            .map((p) => `<li>${esc(labels.get(p.field) ?? p.field)}: ${esc(REASONS[p.reason])}</li>`)
            .join('');
          return answer(400, 'Please check the form', `<p>Nothing was sent.</p><ul>${items}</ul>`);
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

async function fieldLabels(services: Services, formId: string): Promise<Map<string, string>> {
  const form = await services.builder.read.form(formId).catch(() => null);
  return new Map((form?.fields ?? []).map((f) => [f.name, f.label]));
}

/** The site's stylesheet in its published version, so the answer looks like the site (or none). */
async function stylesheetOf(services: Services, target: FormSubmissionTarget): Promise<string | undefined> {
  if (!target.versionId) return undefined;
  const version = await services.builder.read.version(target.siteId, target.versionId).catch(() => null);
  return version?.manifest.find((f) => STYLESHEET.test(f.path))?.path;
}

function page(
  res: ServerResponse,
  p: {
    root: string;
    status: number;
    title: string;
    body: string;
    extra: string[];
    stylesheet: string | undefined;
  },
) {
  const css = p.stylesheet ? `<link rel="stylesheet" href="${esc(p.root + p.stylesheet)}">` : '';
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${esc(p.title)}</title>${css}</head>
<body><main id="main" class="wrap form-answer"><h1>${esc(p.title)}</h1>
${p.body}
<p><a href="${esc(p.root)}/">Back to the site</a></p></main></body></html>
`;
  res.writeHead(p.status, [
    ...securityHeaders(p.root),
    'Content-Type',
    'text/html; charset=utf-8',
    'Content-Length',
    String(Buffer.byteLength(html)),
    'Cache-Control',
    'no-store',
    ...p.extra,
  ]);
  res.end(html);
}
