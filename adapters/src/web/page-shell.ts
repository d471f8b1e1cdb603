// The page shell every page shares (docs/web.md#shell): header with the instance and the navigation,
// main, footer; the one stylesheet and the page's ES modules; the security headers (strict CSP, no
// framing, no caching, same-origin referrer so form posts carry our Origin).
import type { Response } from 'express';
import { assetUrl } from './assets.js';
import { html, type Html, type Markup, markupText, raw } from './html.js';
import { readerClock } from './reader-zone.js';

/** Who is looking at the page, for the header (see `pageViewer` in page-session.ts). */
export interface PageViewer {
  /** The instance's name, shown as the brand. */
  instanceName: string;
  /** The signed-in person, or null for a visitor. */
  person: { name: string; handle: string | null; isOperator: boolean; csrf: string } | null;
  /** The operators' notice shown at the top of every page (run-time setting `notice`); none when empty. */
  notice?: string;
}

export interface CspOptions {
  /** Origins a page may frame (a preview pane on the sites' origin); none by default. */
  frameSrc?: readonly string[];
  /** Who may frame this page; `'none'` by default. */
  frameAncestors?: readonly string[];
  /** Extra image sources beyond 'self', data: and blob:. */
  imgSrc?: readonly string[];
  /**
   * Where forms may post. 'self' by default; `null` leaves it open for pages whose form answer
   * redirects to another site (the OAuth consent page redirects to the client).
   */
  formAction?: readonly string[] | null;
}

export function contentSecurityPolicy(o: CspOptions = {}): string {
  const list = (xs: readonly string[] | undefined, fallback: string) =>
    xs?.length ? xs.join(' ') : fallback;
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    `img-src 'self' data: blob:${o.imgSrc?.length ? ' ' + o.imgSrc.join(' ') : ''}`,
    "connect-src 'self'",
    "font-src 'self'",
    "manifest-src 'self'",
    "base-uri 'none'",
    ...(o.formAction === null ? [] : [`form-action ${list(o.formAction, "'self'")}`]),
    ...(o.frameSrc?.length ? [`frame-src ${o.frameSrc.join(' ')}`] : []),
    `frame-ancestors ${list(o.frameAncestors, "'none'")}`,
  ].join('; ');
}

/** The navigation: signed-in people see their pages; `operator` only for controllers. */
export interface NavItem {
  href: string;
  label: string;
  operator?: boolean;
}
export const NAV: NavItem[] = [
  { href: '/home', label: 'Home' },
  { href: '/builder', label: 'Builder' },
  { href: '/assistant', label: 'Assistant' },
  { href: '/access', label: 'Agent access' },
  { href: '/operator', label: 'Operator', operator: true },
];

export interface PageOptions {
  title: string;
  body: Markup;
  viewer?: PageViewer | null;
  /** The nav entry to mark as the current page (its href). */
  current?: string;
  /** Stylesheets from assets/ loaded after app.css, e.g. ['studio.css']. */
  styles?: readonly string[];
  /** ES modules from assets/ to load, e.g. ['builder.js']; app.js is always loaded. */
  scripts?: readonly string[];
  /** A narrow column for forms (sign-in, consent). */
  narrow?: boolean;
  /** False when the body brings its own h1. */
  heading?: boolean;
  /** A line under the h1. */
  lede?: Markup;
  csp?: CspOptions;
}

function header(v: PageViewer | null | undefined, current: string | undefined): Html {
  const brand = v?.instanceName ?? 'Tributary';
  const item = (href: string, label: string) =>
    html`<li><a href="${href}" ${raw(href === current ? ' aria-current="page"' : '')}>${label}</a></li>`;
  const person = v?.person;
  const links = person
    ? html`${NAV.filter((n) => !n.operator || person.isOperator).map((n) => item(n.href, n.label))}
        ${item('/docs', 'Docs')}
        <li>
          <form class="inline" method="post" action="/signout">
            <input type="hidden" name="csrf" value="${person.csrf}" /><button type="submit" class="btn-link">
              Sign out
            </button>
          </form>
        </li>`
    : html`${item('/docs', 'Docs')}${item('/signin', 'Sign in')}${item('/signup', 'Sign up')}`;
  return html`<header class="site-header">
    <div class="bar">
      <a class="brand" href="${person ? '/home' : '/'}"
        >${brand}${brand === 'Tributary' ? '' : html` <span>· Tributary</span>`}</a
      >
      <nav class="site-nav" aria-label="Main">
        <ul>
          ${links}
        </ul>
      </nav>
    </div>
  </header>`;
}

export function renderPage(o: PageOptions): string {
  const scripts = ['app.js', ...(o.scripts ?? [])];
  // The zone the person chose, kept on their account: app.js leaves the page's times in it, and scripts
  // that write a time (studio-editor.js) write it in the same zone (docs/web.md#times).
  const clock = readerClock();
  const who = o.viewer?.person;
  return `<!doctype html>
${markupText(
  html`<html lang="en" ${clock.chosen === 'account' ? html`data-zone-chosen="${clock.zone}"` : ''}>
    <head>
      <meta charset="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <title>${o.title} · ${o.viewer?.instanceName ?? 'Tributary'}</title>
      <link rel="stylesheet" href="${assetUrl('app.css')}" />
      ${(o.styles ?? []).map((s) => html`<link rel="stylesheet" href="${assetUrl(s)}" />`)}
      <link rel="icon" href="${assetUrl('favicon.svg')}" type="image/svg+xml" />
      ${scripts.map((s) => html`<script type="module" src="${assetUrl(s)}"></script>`)}
    </head>
    <body>
      <a class="skip-link" href="#main">Skip to content</a>
      ${header(o.viewer, o.current)}
      ${
        o.viewer?.notice
          ? html`<aside class="instance-notice" aria-label="Notice from the operators">
              <p><strong>Notice:</strong> ${o.viewer.notice}</p>
            </aside>`
          : ''
      }
      <main id="main" ${raw(o.narrow ? ' class="narrow"' : '')}>
        ${o.heading === false ? '' : html`<h1>${o.title}</h1>`}
        ${o.lede ? html`<p class="muted">${raw(markupText(o.lede))}</p>` : ''} ${raw(markupText(o.body))}
      </main>
      <footer class="site-footer">
        <div class="bar">
          <span
            >${who ? html`Signed in as ${who.name}${who.handle ? ` (@${who.handle})` : ''}` : 'Tributary'}</span
          >
          <a href="/">About this instance</a><a href="/docs">Reference</a
          ><a href="/docs/connect">Connect an agent</a>
        </div>
      </footer>
    </body>
  </html>`,
)}`;
}

/** Sends a page with the headers every page carries. */
export function sendHtml(res: Response, status: number, o: PageOptions) {
  res
    .status(status)
    .setHeader('Content-Security-Policy', contentSecurityPolicy(o.csp))
    .setHeader('X-Frame-Options', o.csp?.frameAncestors?.length ? 'SAMEORIGIN' : 'DENY')
    // Not the app-wide no-referrer: under it browsers send `Origin: null` with form posts, which the
    // same-origin check must refuse. same-origin still sends nothing to other sites.
    .setHeader('Referrer-Policy', 'same-origin')
    .setHeader('Cache-Control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(renderPage(o));
}
