// Preview, publish and rollback end to end on a real instance over PostgreSQL: REST under /api/builder
// (session only), the MCP tool through the official SDK client, and preview URLs served by the site
// server with the site's strict headers. Preview bytes are the published bytes; rollback after three
// publishes serves the first version's bytes exactly; refusals answer a stable code and write nothing;
// the builder read models rebuilt from the log equal the incremental ones; a restart keeps it all.
import { siteStream, type ManifestEntry } from '@tributary/domain';
import { rebuildProjections } from '@tributary/infra';
import { builderProjections } from '@tributary/projections';
import { commitEvents } from '@tributary/services';
import { startTestInstance, type TestInstance } from '@tributary/test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import http from 'node:http';
import { afterAll, beforeAll, describe, test } from 'vitest';
import {
  errorCodeOf,
  issueToken,
  mcpClient,
  signUp,
  structured,
  type Loose,
  type Person,
} from './mcp-helpers.js';
import { builderFootprint } from './builder-helpers.js';

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

const draft = (words: string) => ({
  schemaVersion: 1,
  pages: [
    {
      path: '/',
      title: 'Soups',
      blocks: [
        { type: 'heading', level: 1, text: `Soups: ${words}` },
        {
          type: 'text',
          markdown: `Today: **${words}**. See [the menu](/menu) or [us](https://example.org).`,
        },
      ],
    },
    { path: '/menu', title: 'Menu', blocks: [{ type: 'links', items: [{ label: 'Home', url: '/' }] }] },
    { path: '/about/kitchen', title: 'Kitchen', blocks: [{ type: 'divider' }] },
  ],
  navigation: { items: [{ label: 'Menu', url: '/menu' }] },
  footer: { markdown: `© ${words}`, links: [] },
});

/** Fetches a URL's bytes and headers, without following redirects. */
async function fetchBytes(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, { redirect: 'manual', headers });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

describe('builder preview, publish and rollback', () => {
  let instance: TestInstance;
  let ada: Person;
  let bob: Person;

  const pool = () => instance.instance.pool;
  const services = () => instance.instance.services;
  /** The log apart from provenance entries, and the builder's read models: what a refusal leaves alone. */
  const footprint = () => builderFootprint(pool());
  const saveDraft = async (who: Person, words: string) => {
    const current = await who.browser.get('/api/builder/draft');
    const saved = await who.browser.call('PUT', '/api/builder/draft', {
      revision: current.json.result.revision,
      document: draft(words),
    });
    assert.equal(saved.status, 201, saved.text);
  };
  /** Every file of a version, by path, from what the preview URL serves (relative to its root). */
  const servedFiles = async (previewUrl: string, manifest: readonly ManifestEntry[]) => {
    const root = new URL(previewUrl);
    root.pathname = root.pathname.split('/').slice(0, 4).join('/') + '/';
    const files = new Map<string, Buffer>();
    for (const entry of manifest) {
      const path = entry.path.endsWith('/index.html')
        ? entry.path.slice(0, -'index.html'.length)
        : entry.path;
      const got = await fetchBytes(new URL(path.slice(1), root).href);
      assert.equal(got.status, 200, `${entry.path} at the preview URL`);
      assert.equal(got.headers.get('content-type'), entry.contentType);
      assert.equal(got.headers.get('etag'), `"${entry.sha256}"`);
      assert.equal(sha256(got.bytes), entry.sha256, entry.path);
      files.set(entry.path, got.bytes);
    }
    return files;
  };
  /** Every file of a version, by path, from the blob store the site server serves from. */
  const storedFiles = async (siteId: string, versionId: string) => {
    const version = await services().builder.read.version(siteId, versionId);
    assert.ok(version, `version ${versionId} of ${siteId}`);
    const files = new Map<string, Buffer>();
    for (const entry of version.manifest) {
      const bytes = await services().builder.blobs.get(entry.sha256);
      assert.ok(bytes, entry.path);
      files.set(entry.path, bytes);
    }
    return { manifest: version.manifest, files };
  };

  beforeAll(async () => {
    instance = await startTestInstance({ env: { INSTANCE_ROLE: 'group', INSTANCE_NAME: 'Sites' } });
    ada = await signUp(instance.url, 'ada');
    bob = await signUp(instance.url, 'bob');
  });
  afterAll(async () => {
    await instance?.destroy();
  });

  test('given a draft, when previewed, then the preview URL serves the stored page with the site’s strict headers', async () => {
    await saveDraft(ada, 'leek');
    const r = await ada.browser.post('/api/builder/preview', { path: '/menu' });
    assert.equal(r.status, 200, r.text);
    const p = r.json.result as Loose;
    assert.match(p.previewUrl, new RegExp(`^${instance.url}/sites/_preview/[^/]+/menu/$`));
    assert.match(p.html, /<title>Menu – ada<\/title>/);
    const page = await fetchBytes(p.previewUrl);
    assert.equal(page.status, 200);
    assert.equal(page.bytes.toString('utf8'), p.html);
    const csp = page.headers.get('content-security-policy') ?? '';
    for (const directive of [
      "default-src 'none'",
      "img-src 'self'",
      "style-src 'self'",
      "form-action 'self'",
      "base-uri 'none'",
      "frame-ancestors 'none'",
    ])
      assert.ok(csp.includes(directive), `CSP has ${directive}: ${csp}`);
    assert.doesNotMatch(csp, /script-src|unsafe/);
    assert.equal(page.headers.get('x-content-type-options'), 'nosniff');
    assert.ok(page.headers.get('referrer-policy'));
    assert.equal(page.headers.get('etag'), `"${sha256(page.bytes)}"`);
    assert.equal(page.headers.get('set-cookie'), null);
    // The same validator answers 304; a page without its slash redirects to it; the stylesheet resolves.
    assert.equal(
      (await fetchBytes(p.previewUrl, { 'if-none-match': `"${sha256(page.bytes)}"` })).status,
      304,
    );
    const bare = await fetchBytes(p.previewUrl.slice(0, -1));
    assert.equal(bare.status, 308);
    assert.equal(new URL(bare.headers.get('location')!, p.previewUrl).href, p.previewUrl);
    const css = /href="([^"]+\.css)"/.exec(p.html)![1]!;
    const sheet = await fetchBytes(new URL(css, p.previewUrl).href);
    assert.equal(sheet.status, 200);
    assert.equal(sheet.headers.get('content-type'), 'text/css; charset=utf-8');
    assert.equal(sheet.headers.get('etag'), `"${sha256(sheet.bytes)}"`);
  });

  test('given a preview, when it is asked for on the preview host, then the same bytes answer and only the application may frame them', async () => {
    const p = (await ada.browser.post('/api/builder/preview', {})).json.result as Loose;
    const path = new URL(p.previewUrl).pathname;
    const onPreviewHost = (at: string) =>
      new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
        const u = new URL(instance.url);
        const req = http.request(
          {
            host: u.hostname,
            port: u.port,
            path: at,
            headers: { host: `preview.sites.localhost:${u.port}` },
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () =>
              resolve({
                status: res.statusCode!,
                headers: res.headers,
                body: Buffer.concat(chunks).toString(),
              }),
            );
          },
        );
        req.on('error', reject);
        req.end();
      });
    const framed = await onPreviewHost(path);
    assert.equal(framed.status, 200);
    assert.equal(framed.body, p.html);
    const csp = String(framed.headers['content-security-policy']);
    assert.ok(csp.includes(`frame-ancestors ${new URL(instance.url).origin}`), csp);
    assert.ok(csp.includes('sandbox allow-forms'), csp);
    assert.equal(framed.headers['x-frame-options'], undefined);
    assert.equal(framed.headers['cache-control'], 'no-store');
    // Nothing else is served there, and the application host's previews stay unframable.
    assert.equal((await onPreviewHost('/')).status, 404);
    assert.match(
      String((await onPreviewHost('/')).headers['content-security-policy']),
      /frame-ancestors 'none'/,
    );
    const plain = await fetchBytes(p.previewUrl);
    assert.match(plain.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/);
    assert.equal(plain.headers.get('x-frame-options'), 'DENY');
  });

  test('given a preview, when the draft is published, then the site serves the very bytes the preview served', async () => {
    const preview = (await ada.browser.post('/api/builder/preview', {})).json.result as Loose;
    const published = await ada.browser.post('/api/builder/publish', {});
    assert.equal(published.status, 200, published.text);
    assert.equal(published.json.result.versionId, preview.versionId);
    assert.equal(published.json.result.reused, true);
    const site = (await ada.browser.get('/api/builder/site')).json.result as Loose;
    assert.equal(site.publication.versionId, preview.versionId);
    const stored = await storedFiles(preview.siteId, site.publication.versionId);
    const served = await servedFiles(preview.previewUrl, stored.manifest);
    assert.deepEqual(served, stored.files);
    assert.ok(stored.manifest.some((e) => e.path === '/about/kitchen/index.html'));
  });

  test('given three publishes, when rolled back to the first, then the first version’s bytes are served exactly', async () => {
    const versions: { versionId: string; previewUrl: string; files: Map<string, Buffer> }[] = [];
    for (const words of ['one', 'two', 'three']) {
      await saveDraft(ada, words);
      const preview = (await ada.browser.post('/api/builder/preview', {})).json.result as Loose;
      const published = await ada.browser.post('/api/builder/publish', {});
      assert.equal(published.status, 200, published.text);
      assert.equal(published.json.result.versionId, preview.versionId);
      const { manifest } = await storedFiles(preview.siteId, preview.versionId);
      versions.push({
        versionId: preview.versionId,
        previewUrl: preview.previewUrl,
        files: await servedFiles(preview.previewUrl, manifest),
      });
    }
    const [first, , third] = versions;
    const back = await ada.browser.post('/api/builder/rollback', { versionId: first!.versionId });
    assert.equal(back.status, 200, back.text);
    assert.equal(back.json.result.fromVersionId, third!.versionId);
    const site = (await ada.browser.get('/api/builder/site')).json.result as Loose;
    assert.equal(site.publication.versionId, first!.versionId);
    const now = await storedFiles(site.site.siteId, site.publication.versionId);
    assert.deepEqual(now.files, first!.files);
    // Each version differs from the others, and every version is still listed.
    assert.notDeepEqual(first!.files.get('/index.html'), third!.files.get('/index.html'));
    const listed = (site.versions as Loose[]).map((v) => v.versionId);
    for (const v of versions) assert.ok(listed.includes(v.versionId));
    const events = await pool().query(
      `SELECT envelope::jsonb->'data' AS data FROM events WHERE type = 'site.rolled_back'`,
    );
    assert.deepEqual(
      events.rows.map((r) => [r.data.versionId, r.data.fromVersionId]),
      [[first!.versionId, third!.versionId]],
    );
  });

  test('given two publishes of the same draft at once, then one version and one publication', async () => {
    await saveDraft(ada, 'together');
    const before = await pool().query(`SELECT count(*) AS n FROM events WHERE type LIKE 'site.%'`);
    const answers = await Promise.all([
      ada.browser.post('/api/builder/publish', {}),
      ada.browser.post('/api/builder/publish', {}),
    ]);
    for (const a of answers) assert.equal(a.status, 200, a.text);
    assert.equal(answers[0]!.json.result.versionId, answers[1]!.json.result.versionId);
    const written = await pool().query(
      `SELECT type FROM events WHERE type LIKE 'site.%' ORDER BY position OFFSET $1`,
      [Number(before.rows[0].n)],
    );
    assert.deepEqual(
      written.rows.map((r) => r.type),
      ['site.version_created', 'site.published'],
    );
  });

  test('given another site’s version or unknown input, when rolling back, then a stable code and nothing written', async () => {
    await saveDraft(bob, 'bob');
    const bobVersion = (await bob.browser.post('/api/builder/publish', {})).json.result.versionId as string;
    const adaSite = (await ada.browser.get('/api/builder/site')).json.result.site.siteId as string;
    const before = await footprint();
    const answers = [
      [
        await ada.browser.post('/api/builder/rollback', { versionId: bobVersion }),
        404,
        'builder.version_not_found',
      ],
      [
        await ada.browser.post('/api/builder/rollback', { siteId: adaSite, versionId: bobVersion }),
        404,
        'builder.version_not_found',
      ],
      [await ada.browser.post('/api/builder/rollback', {}), 400, 'input.invalid'],
      [await ada.browser.post('/api/builder/rollback', { versionId: '../x' }), 400, 'input.invalid'],
      [await ada.browser.post('/api/builder/preview', { path: '/nope' }), 404, 'builder.page_not_found'],
      [
        await ada.browser.post('/api/builder/publish', { targetAgentId: bob.agentId }),
        404,
        'agent.not_found',
      ],
    ] as const;
    for (const [r, status, code] of answers) {
      assert.equal(r.status, status, r.text);
      assert.equal(r.json.code, code);
    }
    assert.deepEqual(await footprint(), before);
    const anonymous = await fetch(`${instance.url}/api/builder/publish`, { method: 'POST' });
    assert.equal(anonymous.status, 401);
  });

  test('given a suspended site, then publish and rollback are refused with the reason, nothing is written, and its previews answer 451', async () => {
    const cleo = await signUp(instance.url, 'cleo');
    await saveDraft(cleo, 'cleo');
    const first = (await cleo.browser.post('/api/builder/publish', {})).json.result as Loose;
    await saveDraft(cleo, 'cleo again');
    const preview = (await cleo.browser.post('/api/builder/preview', {})).json.result as Loose;
    const owner = (await services().instance.read.get())!.primaryAgentId;
    await commitEvents(
      services(),
      [siteStream(first.siteId)],
      () => [
        {
          stream: siteStream(first.siteId),
          type: 'site.suspended',
          data: { siteId: first.siteId, reason: 'spam' },
        },
      ],
      owner,
    );
    const before = await footprint();
    const publish = await cleo.browser.post('/api/builder/publish', {});
    assert.equal(publish.status, 403, publish.text);
    assert.equal(publish.json.code, 'builder.site_suspended');
    assert.equal(publish.json.reason, 'spam');
    const rollback = await cleo.browser.post('/api/builder/rollback', { versionId: first.versionId });
    assert.equal(rollback.status, 403, rollback.text);
    assert.equal(rollback.json.code, 'builder.site_suspended');
    assert.deepEqual(await footprint(), before);
    const served = await fetchBytes(preview.previewUrl);
    assert.equal(served.status, 451);
    assert.doesNotMatch(served.bytes.toString('utf8'), /cleo again/);
  });

  test('given a token that is not one this instance issued, then its preview URL is the 404 page', async () => {
    const p = (await ada.browser.post('/api/builder/preview', {})).json.result as Loose;
    const token = new URL(p.previewUrl).pathname.split('/')[3]!;
    const forged = token.slice(0, -2) + (token.endsWith('AA') ? 'BB' : 'AA');
    for (const url of [
      p.previewUrl.replace(token, forged),
      `${instance.url}/sites/_preview/not-a-token/`,
      `${instance.url}/sites/_preview/`,
    ]) {
      const r = await fetchBytes(url);
      assert.equal(r.status, 404, url);
      assert.doesNotMatch(r.bytes.toString('utf8'), /Soups/);
    }
    // A preview's form posts are not taken (submissions go to the published site only).
    const post = await fetch(`${p.previewUrl}_forms/0f8fad5b-d9cb-469f-a165-70867728950e`, {
      method: 'POST',
    });
    assert.equal(post.status, 404);
  });

  test('given an MCP token, when publishing through the SDK client, then the scope decides', async () => {
    const writer = await issueToken(ada, { scopes: ['svc.builder.write'] });
    const reader = await issueToken(ada, { scopes: ['svc.builder.read'] });
    const client = await mcpClient(instance.url, { bearer: writer.token });
    await saveDraft(ada, 'by mcp');
    const done = structured(await client.callTool({ name: 'svc.builder.publish', arguments: {} }));
    assert.equal(done.published, true);
    const preview = structured(await client.callTool({ name: 'svc.builder.preview', arguments: {} }));
    assert.equal(preview.versionId, done.versionId);
    assert.equal(preview.reused, true);
    await client.close();
    const weak = await mcpClient(instance.url, { bearer: reader.token });
    assert.equal(
      errorCodeOf(await weak.callTool({ name: 'svc.builder.publish', arguments: {} })),
      'auth.insufficient_scope',
    );
    await weak.close();
  });

  test('given all of the above, then the builder read models rebuilt from the log equal the incremental ones', async () => {
    const incremental = (await footprint()).tables;
    assert.ok((incremental.rm_builder_versions as unknown[]).length >= 6);
    const counts = await rebuildProjections(pool(), builderProjections);
    assert.ok(counts['builder-sites']! > 0);
    assert.deepEqual((await footprint()).tables, incremental);
  });

  test('given a restart, then versions, their bytes and preview URLs are kept', async () => {
    const p = (await ada.browser.post('/api/builder/preview', {})).json.result as Loose;
    const before = await fetchBytes(p.previewUrl);
    instance = await instance.restart();
    const after = await fetchBytes(p.previewUrl);
    assert.equal(after.status, 200);
    assert.deepEqual(after.bytes, before.bytes);
    const site = (await ada.browser.get('/api/builder/site')).json.result as Loose;
    const stored = await storedFiles(site.site.siteId, site.publication.versionId);
    assert.ok(stored.files.size >= 4);
  });
});
