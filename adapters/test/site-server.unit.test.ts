// The site server on its own: a real node:http server with the site handler in front of a stand-in
// application, fed by an in-memory source and blob store. Hosts are sent as Host headers.
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ManifestEntry } from '@tributary/domain';
import type { BlobStore } from '@tributary/services';
import {
  createSiteServer,
  type FormSubmissionTarget,
  type ServedSite,
  type SiteServer,
  type SiteServingSource,
} from '../src/builder/site-server/index.js';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

class MemoryBlobs implements BlobStore {
  readonly map = new Map<string, Buffer>();
  reads = 0;
  async put(bytes: Uint8Array) {
    const b = Buffer.from(bytes);
    const h = sha(b);
    this.map.set(h, b);
    return { sha256: h, length: b.length };
  }
  async get(h: string) {
    this.reads++;
    return this.map.get(h);
  }
  async has(h: string) {
    return this.map.has(h);
  }
}

class MemorySource implements SiteServingSource {
  readonly sites = new Map<string, ServedSite>();
  listener: ((siteId: string | null) => void) | null = null;
  async all() {
    return [...this.sites.values()];
  }
  async site(id: string) {
    return this.sites.get(id) ?? null;
  }
  async subscribe(cb: (siteId: string | null) => void) {
    this.listener = cb;
    return () => {
      this.listener = null;
    };
  }
}

const blobs = new MemoryBlobs();
const source = new MemorySource();

async function file(path: string, text: string, contentType = 'text/html; charset=utf-8') {
  const b = Buffer.from(text);
  const { sha256, length } = await blobs.put(b);
  return { path, sha256, contentType, length } satisfies ManifestEntry;
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

let port = 0;
function request(
  path: string,
  o: { host?: string; method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: o.method ?? 'GET',
        headers: { host: o.host ?? `127.0.0.1:${port}`, ...o.headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString() }),
        );
      },
    );
    req.on('error', reject);
    req.end(o.body);
  });
}

let sites: SiteServer;
let server: http.Server;
const forms: FormSubmissionTarget[] = [];
const thanked: (FormSubmissionTarget & { method: string | undefined })[] = [];
let css: ManifestEntry;
let previewPage: ManifestEntry;

beforeAll(async () => {
  const cssText = 'body{color:#123}';
  const cssHash = sha(Buffer.from(cssText));
  previewPage = await file('/index.html', '<h1>Preview of the draft</h1>');
  css = await file(`/_assets/theme-${cssHash.slice(0, 12)}.css`, cssText, 'text/css; charset=utf-8');
  source.sites.set('s1', {
    siteId: 's1',
    ownerAgentId: 'owner-1',
    labels: ['alpha'],
    domains: [
      { name: 'www.alpha.example', serving: true },
      { name: 'pending.example', serving: false },
    ],
    suspendedReason: null,
    publication: {
      versionId: 'v1',
      manifestHash: 'a'.repeat(64),
      files: [
        await file('/index.html', '<h1>Alpha home</h1>'),
        await file('/about/index.html', '<h1>About alpha</h1>'),
        await file('/404.html', '<h1>Alpha has no such page</h1>'),
        await file('/_assets/plain.css', 'p{}', 'text/css; charset=utf-8'),
        css,
      ],
    },
  });
  source.sites.set('s2', {
    siteId: 's2',
    ownerAgentId: 'owner-2',
    labels: ['beta'],
    domains: [{ name: 'beta.example', serving: true }],
    suspendedReason: 'Copyright complaint <b>#12</b>',
    publication: {
      versionId: 'v9',
      manifestHash: 'b'.repeat(64),
      files: [await file('/index.html', '<h1>Beta secret content</h1>')],
    },
  });
  source.sites.set('s3', {
    siteId: 's3',
    ownerAgentId: 'owner-3',
    labels: ['gamma'],
    domains: [],
    suspendedReason: null,
    publication: null,
  });
  sites = createSiteServer({
    sitesDomain: 'sites.test',
    baseUrl: 'http://app.test:3000',
    source,
    blobs,
    cacheBytes: 1024 * 1024,
    pageMaxAgeSeconds: 60,
    previews: async (token) =>
      token === 'good-token'
        ? { siteId: 's1', versionId: 'p1', files: [previewPage], suspendedReason: null }
        : token === 'held-token'
          ? { siteId: 's2', versionId: 'p2', files: [previewPage], suspendedReason: 'spam' }
          : undefined,
    forms: {
      submit: (_req, res, target) => {
        forms.push(target);
        res.writeHead(303, { Location: `/_forms/${target.formId}/sent` });
        res.end();
      },
      sent: (req, res, target) => {
        thanked.push({ method: req.method, ...target });
        res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
        res.end(req.method === 'HEAD' ? undefined : 'thank you');
      },
    },
    logger: pino({ level: 'silent' }),
  });
  await sites.start();
  server = http.createServer((req, res) => {
    if (sites.handle(req, res)) return;
    res.setHeader('Set-Cookie', 'app=1');
    res.end('application');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  await sites.close();
  server.close();
});

const expectSiteHeaders = (a: Answer, root = '') => {
  const csp = a.headers['content-security-policy']!;
  expect(csp).toContain("default-src 'none'");
  expect(csp).not.toMatch(/script-src|unsafe/);
  expect(csp).toContain("form-action 'self'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toMatch(/sandbox allow-forms/);
  expect(csp).toContain(`report-uri ${root}/_csp-report`);
  expect(a.headers['x-content-type-options']).toBe('nosniff');
  expect(a.headers['referrer-policy']).toBe('no-referrer');
  expect(a.headers['set-cookie']).toBeUndefined();
};

describe('serving by address', () => {
  it('serves the published index with the strict headers, ETag and a short revalidated cache', async () => {
    const a = await request('/', { host: 'alpha.sites.test:3000', headers: { cookie: 'session=secret' } });
    expect(a.status).toBe(200);
    expect(a.body).toBe('<h1>Alpha home</h1>');
    expectSiteHeaders(a);
    expect(a.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(a.headers.etag).toBe(`"${sha(Buffer.from('<h1>Alpha home</h1>'))}"`);
    expect(a.headers['cache-control']).toBe('public, max-age=60, must-revalidate');
    expect(a.headers['content-length']).toBe(String(a.body.length));
  });

  it('answers 304 to a matching If-None-Match (strong, weak or in a list), 200 to another', async () => {
    const first = await request('/', { host: 'alpha.sites.test' });
    const etag = first.headers.etag!;
    for (const inm of [etag, `W/${etag}`, `"nope", ${etag}`, '*']) {
      const a = await request('/', { host: 'alpha.sites.test', headers: { 'if-none-match': inm } });
      expect(a.status).toBe(304);
      expect(a.body).toBe('');
      expect(a.headers.etag).toBe(etag);
      expectSiteHeaders(a);
    }
    const other = await request('/', { host: 'alpha.sites.test', headers: { 'if-none-match': '"nope"' } });
    expect(other.status).toBe(200);
  });

  it('answers HEAD with the headers and no body', async () => {
    const a = await request('/about/', { host: 'alpha.sites.test', method: 'HEAD' });
    expect(a.status).toBe(200);
    expect(a.body).toBe('');
    expect(a.headers['content-length']).toBe(String('<h1>About alpha</h1>'.length));
  });

  it('maps folders to index.html and redirects a folder asked for without its slash', async () => {
    expect((await request('/about/', { host: 'alpha.sites.test' })).body).toBe('<h1>About alpha</h1>');
    const r = await request('/about?x=1', { host: 'alpha.sites.test' });
    expect(r.status).toBe(308);
    expect(r.headers.location).toBe('/about/?x=1');
    expectSiteHeaders(r);
  });

  it('caches hashed assets as immutable for a year, and other assets only briefly', async () => {
    const hashed = await request(css.path, { host: 'alpha.sites.test' });
    expect(hashed.status).toBe(200);
    expect(hashed.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(hashed.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const plain = await request('/_assets/plain.css', { host: 'alpha.sites.test' });
    expect(plain.headers['cache-control']).toBe('public, max-age=60, must-revalidate');
  });

  it("answers an unknown path with the site's own 404 page", async () => {
    for (const path of [
      '/nope',
      '/../index.html',
      '/%2e%2e/index.html',
      '/about/../index.html',
      '//index.html',
    ]) {
      const a = await request(path, { host: 'alpha.sites.test' });
      expect(a.status, path).toBe(404);
      expect(a.body).toBe('<h1>Alpha has no such page</h1>');
      expectSiteHeaders(a);
      expect(a.headers['cache-control']).toBe('no-store');
    }
  });

  it('answers an unknown address, a nested name and a site with nothing published with the plain 404 page', async () => {
    for (const host of ['nobody.sites.test', 'x.alpha.sites.test', 'sites.test', 'gamma.sites.test']) {
      const a = await request('/', { host });
      expect(a.status, host).toBe(404);
      expect(a.body).toContain('Not found');
      expectSiteHeaders(a);
    }
  });

  it('leaves every other host and path to the application', async () => {
    const a = await request('/', { host: 'app.test:3000' });
    expect(a.body).toBe('application');
    expect((await request('/api/ops/x', { host: 'elsewhere.example' })).body).toBe('application');
  });

  it('refuses methods other than GET and HEAD with 405 and Allow', async () => {
    for (const method of ['PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
      const a = await request('/', { host: 'alpha.sites.test', method });
      expect(a.status, method).toBe(405);
      expect(a.headers.allow).toBe('GET, HEAD');
      expectSiteHeaders(a);
    }
    const post = await request('/', { host: 'alpha.sites.test', method: 'POST', body: 'x=1' });
    expect(post.status).toBe(405);
  });

  it('hands form posts to the forms hook with the resolved site', async () => {
    forms.length = 0;
    const a = await request('/_forms/contact-1', { host: 'alpha.sites.test', method: 'POST', body: 'a=b' });
    expect(a.status).toBe(303);
    expect(forms).toEqual([{ siteId: 's1', ownerAgentId: 'owner-1', formId: 'contact-1', versionId: 'v1' }]);
    const get = await request('/_forms/contact-1', { host: 'alpha.sites.test' });
    expect(get.status).toBe(405);
    expect(get.headers.allow).toBe('POST');
  });

  it('hands the thank-you page a post is redirected to (GET and HEAD only) to the forms hook, on every address', async () => {
    thanked.length = 0;
    const target = { siteId: 's1', ownerAgentId: 'owner-1', formId: 'contact-1', versionId: 'v1' };
    const byHost = await request('/_forms/contact-1/sent', { host: 'alpha.sites.test' });
    expect([byHost.status, byHost.body]).toEqual([200, 'thank you']);
    const head = await request('/sites/alpha/_forms/contact-1/sent', { method: 'HEAD' });
    expect([head.status, head.body]).toEqual([200, '']);
    expect(thanked).toEqual([
      { method: 'GET', ...target },
      { method: 'HEAD', ...target },
    ]);
    const post = await request('/_forms/contact-1/sent', {
      host: 'alpha.sites.test',
      method: 'POST',
      body: 'a=b',
    });
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('GET, HEAD');
    expect(thanked).toHaveLength(2);
    // Nothing deeper or else below a form's address is the forms hook's.
    expect((await request('/_forms/contact-1/sent/x', { host: 'alpha.sites.test' })).status).toBe(404);
    expect((await request('/sites/_preview/good-token/_forms/contact/sent')).status).toBe(404);
    expect(thanked).toHaveLength(2);
  });

  it('counts CSP reports and answers 204', async () => {
    const before = sites.stats().cspReports;
    const a = await request('/_csp-report', {
      host: 'alpha.sites.test',
      method: 'POST',
      headers: { 'content-type': 'application/csp-report' },
      body: JSON.stringify({ 'csp-report': { 'violated-directive': 'script-src-elem' } }),
    });
    expect(a.status).toBe(204);
    expect(sites.stats().cspReports).toBe(before + 1);
    const big = await request('/_csp-report', {
      host: 'alpha.sites.test',
      method: 'POST',
      body: 'x'.repeat(40_000),
    });
    expect(big.status).toBe(413);
    expect(sites.stats().cspReports).toBe(before + 1);
  });
});

describe('serving by custom domain and by path', () => {
  it('serves a verified domain, and answers a bound but unverified one with 404, never the application', async () => {
    expect((await request('/', { host: 'WWW.Alpha.Example.' })).body).toBe('<h1>Alpha home</h1>');
    const pending = await request('/', { host: 'pending.example' });
    expect(pending.status).toBe(404);
    expect(pending.body).toContain('Not found');
  });

  it('serves /sites/<label>/ on the application host with the policy rooted there', async () => {
    const a = await request('/sites/alpha/', { headers: { cookie: 'session=secret' } });
    expect(a.status).toBe(200);
    expect(a.body).toBe('<h1>Alpha home</h1>');
    expectSiteHeaders(a, '/sites/alpha');
    const bare = await request('/sites/alpha?q=1');
    expect(bare.status).toBe(308);
    expect(bare.headers.location).toBe('/sites/alpha/?q=1');
    const folder = await request('/sites/alpha/about');
    expect(folder.headers.location).toBe('/sites/alpha/about/');
    expect((await request('/sites/alpha/about/')).body).toBe('<h1>About alpha</h1>');
    expect((await request('/sites/nobody/')).status).toBe(404);
    expect((await request('/sites/')).status).toBe(404);
  });
});

describe('previews', () => {
  it('serves the version a preview token opens at /sites/_preview/<token>/, never cached nor indexed', async () => {
    const a = await request('/sites/_preview/good-token/');
    expect(a.status).toBe(200);
    expect(a.body).toBe('<h1>Preview of the draft</h1>');
    expectSiteHeaders(a, '/sites/_preview/good-token');
    expect(a.headers['cache-control']).toBe('no-store');
    expect(a.headers['x-robots-tag']).toBe('noindex');
    expect(a.headers.etag).toBe(`"${previewPage.sha256}"`);
    const bare = await request('/sites/_preview/good-token?x');
    expect(bare.status).toBe(308);
    expect(bare.headers.location).toBe('/sites/_preview/good-token/?x');
  });

  it('answers an unknown or expired token with 404, a suspended site with 451, and takes no form posts', async () => {
    for (const path of ['/sites/_preview/nope/', '/sites/_preview/', '/sites/_preview'])
      expect((await request(path)).status, path).toBe(404);
    expect((await request('/sites/_preview/held-token/')).status).toBe(451);
    forms.length = 0;
    const post = await request('/sites/_preview/good-token/_forms/contact', { method: 'POST', body: 'a=b' });
    expect(post.status).toBe(404);
    expect(forms).toEqual([]);
  });
});

describe('suspension', () => {
  it('answers 451 with the reason and Link rel=blocked-by at every address, domain, path and method', async () => {
    const tries: [string, { host?: string; method?: string }][] = [
      ['/', { host: 'beta.sites.test' }],
      ['/anything/at/all', { host: 'beta.sites.test' }],
      ['/', { host: 'beta.example' }],
      ['/sites/beta/', {}],
      ['/sites/beta', {}],
      ['/_forms/contact', { host: 'beta.sites.test', method: 'POST' }],
      ['/', { host: 'beta.sites.test', method: 'PUT' }],
    ];
    for (const [path, o] of tries) {
      const a = await request(path, o);
      expect(a.status, `${o.host} ${path}`).toBe(451);
      expect(a.headers.link).toBe('<http://app.test:3000/>; rel="blocked-by"');
      expect(a.body).toContain('Copyright complaint &lt;b&gt;#12&lt;/b&gt;');
      expect(a.body).not.toContain('Beta secret content');
      expect(a.headers['cache-control']).toBe('no-store');
      expect(a.headers.etag).toBeUndefined();
    }
  });
});

describe('following changes', () => {
  it('picks up a changed publication, a new label and a lifted suspension once told', async () => {
    const s1 = source.sites.get('s1')!;
    source.sites.set('s1', {
      ...s1,
      labels: ['alpha2'],
      publication: { ...s1.publication!, versionId: 'v2', files: [await file('/index.html', 'second')] },
    });
    source.listener!('s1');
    await sites.refresh('s1');
    expect((await request('/', { host: 'alpha2.sites.test' })).body).toBe('second');
    expect((await request('/', { host: 'alpha.sites.test' })).status).toBe(404);
    expect((await request('/', { host: 'www.alpha.example' })).body).toBe('second');

    source.sites.set('s2', { ...source.sites.get('s2')!, suspendedReason: null });
    await sites.refresh(null);
    expect((await request('/', { host: 'beta.sites.test' })).body).toBe('<h1>Beta secret content</h1>');

    source.sites.delete('s2');
    await sites.refresh('s2');
    expect((await request('/', { host: 'beta.sites.test' })).status).toBe(404);
    expect((await request('/', { host: 'beta.example' })).body).toBe('application');
  });

  it('keeps serving what it knows when the source fails, and catches up once it answers again', async () => {
    const original = source.site.bind(source);
    let failing = true;
    source.site = async (id) => {
      if (failing) throw new Error('database down');
      return original(id);
    };
    source.sites.set('s3', {
      ...source.sites.get('s3')!,
      labels: ['gamma', 'delta'],
      publication: {
        versionId: 'g1',
        manifestHash: 'c'.repeat(64),
        files: [await file('/index.html', 'gamma')],
      },
    });
    await expect(sites.refresh('s3')).rejects.toThrow('database down');
    expect((await request('/', { host: 'alpha2.sites.test' })).body).toBe('second');
    expect((await request('/', { host: 'delta.sites.test' })).status).toBe(404);
    failing = false;
    await sites.refresh('s3');
    expect((await request('/', { host: 'delta.sites.test' })).body).toBe('gamma');
    source.site = original;
  });

  it('reads each file from the store once while it fits the cache', async () => {
    const reads = blobs.reads;
    for (let i = 0; i < 5; i++) await request('/', { host: 'alpha2.sites.test' });
    expect(blobs.reads - reads).toBeLessThanOrEqual(1);
    expect(sites.stats().cache.bytes).toBeLessThanOrEqual(sites.stats().cache.maxBytes);
  });
});
