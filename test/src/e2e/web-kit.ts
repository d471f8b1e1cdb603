// The kit of the web pages' browser tests (docs/web.md#tests): Debian's chromium through playwright-core,
// a page that records CSP violations and console errors, sign-up through the real form, the axe-core
// check (moderate, serious and critical violations fail), the W3C Nu HTML checker over every page a test
// file showed (html-validity.ts, once after the file's last test), and screenshots at phone (390 px) and
// desktop width into test-artifacts/web/ (not committed). A test file's suite is `webSuite(…)`: one instance
// and one chromium for the file, started before its tests and stopped after them.
import {
  CHROMIUM,
  chromiumAvailable,
  startOpenAiCompatibleServer,
  startTestInstance,
  type OpenAiCompatibleServer,
  type TestInstance,
  type TestInstanceOptions,
} from '@tributary/test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { htmlCapture, type HtmlCapture } from './html-validity.js';

export const BROWSER_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export const ARTIFACTS = fileURLToPath(new URL('../../../test-artifacts/web/', import.meta.url));
export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 900 };
export const PASSWORD = 'correct horse battery staple';

// Each test file runs in a process of its own, so this module and its hook are the file's: after its last
// test, the pages it captured are checked in one run of the checker.
let captured: HtmlCapture | undefined;
afterAll(async () => {
  await captured?.validate();
});

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export const launchBrowser = (): Promise<Browser> =>
  chromium.launch({ executablePath: CHROMIUM, args: BROWSER_ARGS });

export interface WatchedPage {
  context: BrowserContext;
  page: Page;
  /** Console messages about a Content-Security-Policy refusal: a page must cause none. */
  cspViolations: string[];
  /** Other console errors and uncaught exceptions. */
  errors: string[];
}

export interface WatchedPageOptions {
  javaScriptEnabled?: boolean;
  desktop?: boolean;
  colorScheme?: 'light' | 'dark';
  /** The browser's time zone (IANA name); the system's when absent. */
  timezoneId?: string;
  /**
   * Ignore the pages' Content-Security-Policy. Only for the axe pass over a published site: its policy
   * sandboxes the page without allow-scripts, so no script (axe included) runs there, and axe.run never
   * settles. A context that shows the site as visitors get it keeps the policy, and runs no `evaluate`
   * in the site's pages: Chromium refuses it with "Blocked script execution" console errors of its own.
   */
  bypassCSP?: boolean;
}

/**
 * A fresh context (its own cookies) and page. Dialogs (the confirm of `form[data-confirm]`) are
 * accepted, as a person who clicked Delete would.
 */
export async function newWatchedPage(browser: Browser, o: WatchedPageOptions = {}): Promise<WatchedPage> {
  const context = await browser.newContext({
    javaScriptEnabled: o.javaScriptEnabled ?? true,
    bypassCSP: o.bypassCSP ?? false,
    ...(o.timezoneId && { timezoneId: o.timezoneId, locale: 'en-US' }),
    viewport: o.desktop === false ? PHONE : DESKTOP,
    // The stylesheet follows the system's scheme; a test may ask for dark (axe checks its contrast too).
    colorScheme: o.colorScheme ?? 'light',
  });
  const page = await context.newPage();
  const w: WatchedPage = { context, page, cspViolations: [], errors: [] };
  page.on('console', (m) => {
    if (m.type() !== 'error') return;
    if (/Content.Security.Policy/i.test(m.text())) w.cspViolations.push(m.text());
    // A page answered with 4xx on purpose (a refused form) logs this too; failed subresources are
    // caught below instead.
    else if (!m.text().startsWith('Failed to load resource')) w.errors.push(m.text());
  });
  page.on('response', (r) => {
    if (r.request().resourceType() === 'document' || r.status() < 400) return;
    // The editor's in-place saves (studio-editor.js) ask with X-Tributary-In-Place and show the answer
    // themselves: a refusal (409 builder.draft_stale, 422 …) is the same page, with the same status, a post
    // without script gets, read and shown beside the form. Keeping the true status (rather than a 200 for
    // the script) keeps one answer for every client; only 4xx of such a fetch are expected, a 5xx is not.
    if (r.status() < 500 && r.request().headers()['x-tributary-in-place'] === '1') return;
    w.errors.push(`${r.status()} for ${r.url()}`);
  });
  page.on('pageerror', (e) => w.errors.push(String(e)));
  page.on('dialog', (d) => void d.accept());
  return w;
}

/** Signs up through the /signup form; ends on /home. */
export async function signUpInBrowser(
  page: Page,
  baseUrl: string,
  handle: string,
  o: { name?: string; password?: string } = {},
): Promise<{ handle: string; password: string }> {
  const password = o.password ?? PASSWORD;
  await page.goto(`${baseUrl}/signup`);
  await page.getByLabel('Your name').fill(o.name ?? handle);
  await page.getByLabel('Handle').fill(handle);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.waitForURL(`${baseUrl}/home`);
  return { handle, password };
}

/** Signs in through the /signin form; ends on `returnTo` (default /home). */
export async function signInInBrowser(page: Page, baseUrl: string, identifier: string, password = PASSWORD) {
  await page.goto(`${baseUrl}/signin`);
  await page.getByLabel('Email or handle').fill(identifier);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${baseUrl}/home`);
}

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

/**
 * Runs axe-core (WCAG 2.x A and AA rules and best practices) on the page as it is; fails on any moderate,
 * serious or critical violation (minor ones are listed by axe but pass), listing each with the elements
 * it found. axe is injected through DevTools,
 * which the page's CSP does not govern, so the page's own policy stays as it ships.
 */
export async function checkAccessibility(page: Page, label: string): Promise<void> {
  const loaded = (await page.evaluate('typeof window.axe')) as string;
  if (loaded !== 'object') await page.evaluate(AXE_SOURCE);
  const violations = (await page.evaluate(`axe.run(document, {
    runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] },
    resultTypes: ['violations'],
  }).then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 5).map((n) => ({ target: n.target, failureSummary: n.failureSummary })) })))`)) as AxeViolation[];
  const bad = violations.filter((v) => ['moderate', 'serious', 'critical'].includes(v.impact ?? ''));
  assert.deepEqual(
    bad.map((v) => `${v.impact} ${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    [],
    `axe found moderate, serious or critical violations on ${label}`,
  );
}

/** Full-page screenshots at phone and desktop width: test-artifacts/web/<name>-390.png and -1280.png. */
export async function screenshots(page: Page, name: string): Promise<void> {
  await mkdir(ARTIFACTS, { recursive: true });
  const before = page.viewportSize() ?? DESKTOP;
  for (const size of [PHONE, DESKTOP]) {
    await page.setViewportSize(size);
    // A loaded machine can take longer than Playwright's 30 s to capture a long page (seen in CI after
    // "fonts loaded"); animations stopped so the capture need not wait on them.
    await page.screenshot({
      path: `${ARTIFACTS}${name}-${size.width}.png`,
      fullPage: true,
      animations: 'disabled',
      timeout: 120_000,
    });
  }
  await page.setViewportSize(before);
}

/**
 * What every page of every journey goes through: axe at phone and desktop width, screenshots of both,
 * its HTML kept for the checker (run after the file's last test), and no CSP violation or script error
 * so far.
 */
export async function checkPage(w: WatchedPage, name: string): Promise<void> {
  captured ??= htmlCapture(ARTIFACTS, expect.getState().testPath ?? 'unknown.test.ts');
  await captured.capture(w.page, name);
  const before = w.page.viewportSize() ?? DESKTOP;
  for (const size of [PHONE, DESKTOP]) {
    await w.page.setViewportSize(size);
    // From the top, at each width (a page opened at a #fragment is scrolled to it again when resized):
    // axe's target-size counts what a sticky bar (the editor's) covers at the current scroll, and a
    // control scrolled under it is not a small target (focus and scrolling into view stop below the bar).
    await w.page.evaluate('window.scrollTo(0, 0)');
    await checkAccessibility(w.page, `${name} at ${size.width} px`);
  }
  await w.page.setViewportSize(before);
  await screenshots(w.page, name);
  assert.deepEqual(w.cspViolations, [], `CSP violations on ${name}`);
  assert.deepEqual(w.errors, [], `script errors on ${name}`);
}

/** A site made through the builder's "Create site" form; its id, from the editor's address it lands on. */
export async function createSiteInBrowser(page: Page, url: string, title: string): Promise<string> {
  await page.goto(`${url}/builder`);
  await page.locator('#new-site').getByLabel('Title').fill(title);
  await page.getByRole('button', { name: 'Create site' }).click();
  await page.waitForURL(/\/builder\/sites\/[0-9a-f-]+/);
  return /\/builder\/sites\/([0-9a-f-]+)/.exec(page.url())![1]!;
}

/**
 * After a click that saves in the builder's editor: waits for the answer and its notice. With scripts the
 * editor saves in place (studio-editor.js), so the notice of the save before may still be on the page
 * while this one is out; #main carries data-saving until the answer is swapped in (it is set as the form
 * is sent, before the click returns). Without scripts the answer is a new page and the notice is on it.
 */
export async function editorAnswered(page: Page, notice = 'Saved.'): Promise<void> {
  await page.locator('#main:not([data-saving])').waitFor();
  await page.getByText(notice).first().waitFor();
}

/** Opens a `<details>` by its summary unless it is open (an in-place save keeps open sections open). */
export async function openDetails(details: Locator): Promise<void> {
  if ((await details.getAttribute('open')) === null) await details.locator(':scope > summary').click();
}

/** A browser test file's instance and chromium, as its tests see them (`webSuite`). */
export interface WebSuite {
  /** The suite's instance. Read it in a test or a hook: it is started in the suite's first beforeAll. */
  readonly t: TestInstance;
  /** The suite's chromium, launched after the instance. */
  readonly browser: Browser;
  /** The scripted model the instance's assistant talks to (only with the `model` option). */
  readonly model: OpenAiCompatibleServer;
  /** A watched page in a fresh context of the suite's browser (`newWatchedPage`). */
  page(o?: WatchedPageOptions): Promise<WatchedPage>;
  /** A watched page in a fresh context, signed up as `handle` through the /signup form; ends on /home. */
  signedUp(
    handle: string,
    o?: WatchedPageOptions & { name?: string; password?: string },
  ): Promise<WatchedPage>;
}

export interface WebSuiteOptions {
  /**
   * What the instance starts with. A function runs in the suite's beforeAll, first: for an instance that
   * names a server the file starts itself (a mail server, a model), which the file closes in an afterAll
   * of its own (hooks run in the order they are written, so after the instance has stopped).
   */
  instance?: TestInstanceOptions | (() => TestInstanceOptions | Promise<TestInstanceOptions>);
  /** `destroy` also drops the instance's database and data folder; `stop` (the default) keeps them. */
  end?: 'stop' | 'destroy';
  /**
   * Start the harness's scripted OpenAI-compatible server (`web.model`, model `test-model`) before the
   * instance, point the instance's assistant at it (LLM_BASE_URL, LLM_MODEL) and close it after the
   * instance has stopped.
   */
  model?: boolean;
}

const SCRIPTED_MODEL = 'test-model';

/**
 * The prologue and epilogue every browser test file shares: a describe skipped where chromium is missing,
 * an instance started before the tests and chromium after it, both closed after the tests (the browser
 * first, so no page is still asking). `body` declares the tests and reads the instance through `web.t`.
 */
export function webSuite(name: string, body: (web: WebSuite) => void): void;
export function webSuite(name: string, options: WebSuiteOptions, body: (web: WebSuite) => void): void;
export function webSuite(
  name: string,
  optionsOrBody: WebSuiteOptions | ((web: WebSuite) => void),
  maybeBody?: (web: WebSuite) => void,
): void {
  const [options, body] =
    typeof optionsOrBody === 'function' ? [{}, optionsOrBody] : [optionsOrBody, maybeBody!];
  describe.skipIf(!chromiumAvailable())(name, () => {
    let t: TestInstance | undefined;
    let browser: Browser | undefined;
    let model: OpenAiCompatibleServer | undefined;
    const started = <T>(value: T | undefined, what: string): T => {
      if (value === undefined)
        throw new Error(`webSuite: ${what} is read before the suite's beforeAll started it`);
      return value;
    };
    const web: WebSuite = {
      get t() {
        return started(t, 'the instance');
      },
      get browser() {
        return started(browser, 'the browser');
      },
      get model() {
        return started(model, 'the model (the suite has no model option)');
      },
      page: (o) => newWatchedPage(web.browser, o),
      async signedUp(handle, o = {}) {
        const w = await web.page(o);
        await signUpInBrowser(w.page, web.t.url, handle, o);
        return w;
      },
    };
    beforeAll(async () => {
      if (options.model) model = await startOpenAiCompatibleServer({ models: [SCRIPTED_MODEL] });
      const given =
        (typeof options.instance === 'function' ? await options.instance() : options.instance) ?? {};
      const llm = model && { LLM_BASE_URL: model.url, LLM_MODEL: SCRIPTED_MODEL };
      t = await startTestInstance(llm ? { ...given, env: { ...llm, ...given.env } } : given);
      browser = await launchBrowser();
    });
    afterAll(async () => {
      await browser?.close();
      await (options.end === 'destroy' ? t?.destroy() : t?.stop());
      await model?.close();
    });
    body(web);
  });
}
