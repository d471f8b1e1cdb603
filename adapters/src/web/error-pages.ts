// A browser that lands on an error gets a page, an API client problem+json (docs/web.md#error-pages):
// the app's not-found, method-not-allowed and error handlers answer through `browserProblems`.
import type { Request, Response } from 'express';
import { sendProblem, type HttpContext, type Problem, type ProblemAnswer } from '../http/index.js';
import { notice } from './components.js';
import { errorWords } from './error-words.js';
import { html } from './html.js';
import { pageViewer } from './page-session.js';
import { sendHtml, type PageViewer } from './page-shell.js';

/**
 * Whether the client asked for HTML before JSON: a browser's navigation (`text/html,…,*\/*;q=0.8`).
 * `*\/*`, no Accept, `application/json` or JSON listed before HTML keep problem+json.
 */
export function wantsHtml(req: Request): boolean {
  if (!req.headers.accept) return false;
  return req.accepts(['application/problem+json', 'application/json', 'text/html']) === 'text/html';
}

/** The page's title by status; what went wrong and what to do are the code's words (error-words.ts). */
const TITLES: Readonly<Record<number, string>> = {
  404: 'Page not found',
  405: 'This address does not work that way',
  429: 'Please wait a moment',
};

/**
 * Answers a problem as a page when a browser asked for HTML: for a missing route or a refused method
 * whatever the method (a browser can land there from a link or a form), for any other error only on a
 * GET or HEAD (a navigation). Headers the problem sets (Allow, Retry-After) are kept; so is its status.
 */
export function browserProblems(ctx: HttpContext): ProblemAnswer {
  return (res, p) => {
    const req = res.req;
    const navigation = p.code === 'route.not_found' || p.code === 'route.method_not_allowed';
    if (!wantsHtml(req) || (!navigation && req.method !== 'GET' && req.method !== 'HEAD'))
      return sendProblem(res, p);
    void problemPage(ctx, req, res, p).catch(() => sendProblem(res, p));
  };
}

async function problemPage(ctx: HttpContext, req: Request, res: Response, p: Problem) {
  // The header's viewer reads the database; an error page must show even when it cannot be read.
  const viewer: PageViewer | null = await pageViewer(ctx, req).catch(() => null);
  if (res.destroyed || res.headersSent) return;
  if (typeof p.retryAfter === 'number') res.setHeader('Retry-After', String(p.retryAfter));
  // A domain error's details are the problem's extra members (retryAfter among them).
  const text = errorWords({ code: p.code, message: p.detail ?? p.title, details: p }) ?? p.title;
  const home = viewer?.person
    ? { href: '/home', label: 'Go to your home page' }
    : { href: '/', label: 'Go to the start page' };
  sendHtml(res, p.status, {
    title: TITLES[p.status] ?? 'That did not work',
    narrow: true,
    viewer,
    body: html`${notice(
        'error',
        html`<p>${text}</p>
          <p class="small muted">Error code: <code data-error-code="${p.code}">${p.code}</code></p>`,
      )}
      <p><a href="${home.href}">${home.label}</a></p>`,
  });
}
