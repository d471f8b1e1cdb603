// The signed-in pages' plumbing (docs/web.md#sessions): who is looking (for the header), the guard that
// sends a visitor to sign in, the checks on every form post (same origin + a CSRF token bound to the
// session), post-and-redirect with a notice, and domain errors as readable pages.
import { isDomainError, type DomainError } from '@tributary/domain';
import { instanceSettings, type Principal } from '@tributary/services';
import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import { randomBytes } from 'node:crypto';
import { parse as parseCookies } from 'cookie';
import {
  formBodyParser,
  principalOf,
  runOperation,
  sameOrigin,
  STATUS_OF_KIND,
  type HttpContext,
} from '../http/index.js';
import { notice, problemNotice } from './components.js';
import { html, type Html } from './html.js';
import { csrfFor, safeEqual } from './page-forms.js';
import { sendHtml, type PageOptions, type PageViewer } from './page-shell.js';

export type SessionPrincipal = Extract<Principal, { kind: 'session' }>;

/** A signed-in person on a page: their principal (for runOperation), the header's viewer, the CSRF token. */
export interface PagePerson {
  principal: SessionPrincipal;
  viewer: PageViewer;
  csrf: string;
  isOperator: boolean;
}

/** The header's view of the request: the instance's name and, when signed in, the person. */
export async function pageViewer(ctx: HttpContext, req: Request): Promise<PageViewer> {
  const principal = await principalOf(ctx, req);
  const [instance, settings] = await Promise.all([
    ctx.services.instance.read.get(),
    instanceSettings(ctx.services),
  ]);
  const instanceName = instance?.name ?? 'Tributary';
  const notice = settings.notice;
  if (principal.kind !== 'session') return { instanceName, person: null, notice };
  const [agent, account] = await Promise.all([
    ctx.services.agents.read.agent(principal.agentId),
    ctx.services.accounts.read.accountById(principal.accountId),
  ]);
  return {
    instanceName,
    notice,
    person: {
      name: agent?.name ?? account?.handle ?? 'you',
      handle: account?.handle ?? null,
      isOperator: !!instance?.controllers.includes(principal.accountId),
      csrf: csrfFor(ctx, req)!,
    },
  };
}

/** A local path to come back to after signing in; anything else becomes /home. */
export function safeReturnTo(v: unknown): string {
  return typeof v === 'string' && /^\/(?![/\\])[\x21-\x7e]*$/.test(v) && v.length <= 2000 ? v : '/home';
}

/**
 * The page session guard: the signed-in person, or null after redirecting (303) to /signin with a
 * return address.
 */
export async function requirePerson(
  ctx: HttpContext,
  req: Request,
  res: Response,
): Promise<PagePerson | null> {
  const principal = await principalOf(ctx, req);
  if (principal.kind !== 'session') {
    res.redirect(303, `/signin?return_to=${encodeURIComponent(req.originalUrl)}`);
    return null;
  }
  const viewer = await pageViewer(ctx, req);
  return { principal, viewer, csrf: viewer.person!.csrf, isOperator: viewer.person!.isOperator };
}

/**
 * A form post by a signed-in person: the session and its CSRF token (field `csrf`) must both check
 * out, else a 403 page (and null). Mount `pageFormBody` before (same origin + urlencoded body).
 */
export async function postingPerson(
  ctx: HttpContext,
  req: Request,
  res: Response,
): Promise<PagePerson | null> {
  const principal = await principalOf(ctx, req);
  const csrf = csrfFor(ctx, req);
  const given = (req.body as Record<string, unknown> | undefined)?.csrf;
  if (
    principal.kind !== 'session' ||
    !csrf ||
    !safeEqual(typeof given === 'string' ? given : undefined, csrf)
  ) {
    sendHtml(res, 403, {
      title: 'Cannot continue',
      narrow: true,
      viewer: await pageViewer(ctx, req),
      body: html`<p>This form has expired or did not come from this site.</p>
        <p><a href="/home">Start again</a>.</p>`,
    });
    return null;
  }
  const viewer = await pageViewer(ctx, req);
  return { principal, viewer, csrf, isOperator: viewer.person!.isOperator };
}

/** What every page form post goes through first: writes only from our own origin, a small urlencoded body. */
export function pageFormBody(ctx: HttpContext): RequestHandler[] {
  return [sameOrigin(ctx.baseUrl), formBodyParser({ extended: false, limit: '64kb', parameterLimit: 200 })];
}

/** A form field as a string ('' when absent); a repeated field's values as a list. */
export const formText = (req: Request, name: string): string => {
  const v = (req.body as Record<string, unknown> | undefined)?.[name];
  return typeof v === 'string' ? v : Array.isArray(v) && typeof v[0] === 'string' ? v[0] : '';
};
export const formList = (req: Request, name: string): string[] => {
  const v = (req.body as Record<string, unknown> | undefined)?.[name];
  return typeof v === 'string'
    ? [v]
    : Array.isArray(v)
      ? v.filter((x): x is string => typeof x === 'string')
      : [];
};

/**
 * Post/redirect/get: back to `path` with `?notice=<key>`; the page shows its own text for the key (never
 * text from the query).
 */
export function redirectWithNotice(res: Response, path: string, key?: string) {
  res.redirect(303, key ? `${path}${path.includes('?') ? '&' : '?'}notice=${encodeURIComponent(key)}` : path);
}

/** The success notice a redirect named (`?notice=<key>`), from the page's own fixed texts; '' for any other key. */
export function noticeFrom(req: Request, texts: Readonly<Record<string, string>>): Html | '' {
  const key = typeof req.query.notice === 'string' ? req.query.notice : '';
  return Object.hasOwn(texts, key) ? notice('success', texts[key]!) : '';
}

/** The status a page answers a refused operation with: the same as REST's problem+json for its kind. */
export const statusOfError = (e: DomainError): number => STATUS_OF_KIND[e.kind] ?? 400;

/** The message of a field from an `input.invalid` error (its `issues`), for showing under that field. */
export function fieldErrors(e: DomainError): Record<string, string> {
  const out: Record<string, string> = {};
  const issues = (e.details as { issues?: { path: string; message: string }[] } | undefined)?.issues;
  for (const i of issues ?? []) out[i.path.split('.')[0] || '_'] ??= i.message;
  return out;
}

/** A domain error as a page: its status, a readable message and the code. */
export async function sendProblemPage(
  ctx: HttpContext,
  req: Request,
  res: Response,
  e: DomainError,
  title = 'That did not work',
) {
  sendHtml(res, STATUS_OF_KIND[e.kind] ?? 400, {
    title,
    narrow: true,
    viewer: await pageViewer(ctx, req),
    body: html`${problemNotice(e, '')}
      <p><a href="/home">Back to your home page</a></p>`,
  });
}

/** For a page router: a domain error thrown by a page becomes a readable page (anything else goes on). */
export function pageErrors(ctx: HttpContext): ErrorRequestHandler {
  return (err, req, res, next) => {
    if (!isDomainError(err) || res.headersSent) return next(err);
    void sendProblemPage(ctx, req, res, err).catch(next);
  };
}

const FORM_CSRF_COOKIE = 'tributary_form_csrf';

/**
 * The CSRF token of a form shown to a visitor (sign-in, sign-up): a random value in a SameSite=Strict
 * cookie that the form must echo (double submit), since there is no session to bind it to yet.
 */
export function visitorCsrf(ctx: HttpContext, req: Request, res: Response): string {
  const existing = parseCookies(req.headers.cookie ?? '')[FORM_CSRF_COOKIE];
  if (existing && /^[A-Za-z0-9_-]{32}$/.test(existing)) return existing;
  const token = randomBytes(24).toString('base64url');
  res.cookie(FORM_CSRF_COOKIE, token, {
    httpOnly: true,
    sameSite: 'strict',
    path: '/',
    secure: ctx.cookie.secure,
  });
  return token;
}

export function visitorCsrfOk(req: Request): boolean {
  const expected = parseCookies(req.headers.cookie ?? '')[FORM_CSRF_COOKIE];
  const given = (req.body as Record<string, unknown> | undefined)?.csrf;
  return !!expected && safeEqual(typeof given === 'string' ? given : undefined, expected);
}

/** Sends a signed-in page (shorthand for pages that have a PagePerson). */
export function sendPersonPage(
  res: Response,
  person: PagePerson,
  o: Omit<PageOptions, 'viewer'>,
  status = 200,
) {
  sendHtml(res, status, { ...o, viewer: person.viewer });
}

/**
 * What a router of a person's pages starts with: the guards its form posts pass, running a catalogue
 * operation as the signed-in person (its result), and the notice `?notice=` names from `notices`.
 */
export function pagePrologue(ctx: HttpContext, notices: Readonly<Record<string, string>>) {
  return {
    posts: pageFormBody(ctx),
    run: <I, O>(op: Parameters<typeof runOperation<I, O>>[1], input: unknown, person: PagePerson) =>
      runOperation(ctx, op, input, person.principal).then((x) => x.result),
    noticeOf: (req: Request) => noticeFrom(req, notices),
  };
}
export type PagePrologue = ReturnType<typeof pagePrologue>;

export type { Html };
