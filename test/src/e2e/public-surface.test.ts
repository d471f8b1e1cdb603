// The public, unauthenticated surface as a stranger meets it over real HTTP: per-address rate limits
// (client registration, discovery documents, the feed), Cache-Control per document, CORS alike on every
// public document, 405 with Allow for a wrong method, and the landing page at `/`.
import { startTestInstance, type TestInstance } from '@tributary/test';
import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { signUp, type Loose } from './mcp-helpers.js';

const eventCount = async (i: TestInstance) =>
  Number((await i.instance.pool.query<{ n: string }>('SELECT count(*) AS n FROM events')).rows[0]!.n);

const register = (url: string, headers: Record<string, string> = {}) =>
  fetch(`${url}/api/mcp/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ client_name: 'Spam', redirect_uris: ['http://127.0.0.1:9/cb'] }),
  });

/** The public read-only documents, with the Cache-Control each answers. */
const DOCUMENTS: [path: string, cache: string][] = [
  ['/', 'public, max-age=300'],
  ['/.well-known/mcp', 'public, max-age=300'],
  ['/llms.txt', 'public, max-age=300'],
  ['/api/openapi.json', 'public, max-age=300'],
  ['/.well-known/universal-manifest.json', 'public, max-age=300'],
  ['/api/federation/manifest', 'public, max-age=300'],
  ['/.well-known/oauth-authorization-server', 'public, max-age=60'],
  ['/.well-known/openid-configuration', 'public, max-age=60'],
  ['/.well-known/oauth-protected-resource', 'public, max-age=60'],
  ['/.well-known/oauth-protected-resource/api/mcp', 'public, max-age=60'],
];
/** Public reads of live state: readable from anywhere, never stored by a cache. */
const LIVE_READS = [
  '/api/federation/events',
  '/api/federation/query?resource=agents',
  '/api/federation/registry',
  '/api/federation/discover?q=nobody',
];

describe('public surface', () => {
  describe('rate limits with the defaults', () => {
    let instance: TestInstance;
    beforeAll(async () => {
      instance = await startTestInstance();
    });
    afterAll(async () => {
      await instance.stop();
    });

    test('given 40 registrations from one address at once, then 20 are accepted and the rest are 429 in OAuth form with Retry-After, writing nothing', async () => {
      const answers = await Promise.all(Array.from({ length: 40 }, () => register(instance.url)));
      const accepted = answers.filter((r) => r.status === 201);
      const refused = answers.filter((r) => r.status === 429);
      assert.equal(accepted.length, 20);
      assert.equal(refused.length, 20);
      for (const r of refused) {
        assert.ok(Number(r.headers.get('retry-after')) > 0);
        assert.equal(r.headers.get('cache-control'), 'no-store');
        assert.match(r.headers.get('content-type') ?? '', /^application\/json/);
        const body = (await r.json()) as Loose;
        assert.equal(body.error, 'temporarily_unavailable');
        assert.match(body.error_description, /too many registrations/);
      }
      // Then one more: refused, and no event of any kind written for it.
      const before = await eventCount(instance);
      const again = await register(instance.url);
      assert.equal(again.status, 429);
      assert.equal(await eventCount(instance), before);
      const registered = await instance.instance.pool.query(
        `SELECT 1 FROM events WHERE type = 'oauth_client.registered'`,
      );
      assert.equal(registered.rowCount, 20);
    });

    test('given no trusted proxy, when X-Forwarded-For names other addresses, then the socket address is counted all the same', async () => {
      const r = await register(instance.url, { 'x-forwarded-for': '203.0.113.7' });
      assert.equal(r.status, 429);
    });
  });

  describe('rate limits as configured', () => {
    let instance: TestInstance;
    beforeAll(async () => {
      instance = await startTestInstance({
        env: { RATE_LIMIT_DISCOVERY: '3/min', RATE_LIMIT_FEED: '1/s', RATE_LIMIT_REGISTRATION: '2/h' },
      });
    });
    afterAll(async () => {
      await instance.stop();
    });

    test('given RATE_LIMIT_DISCOVERY=3/min, then the discovery documents share the budget and the fourth is 429 problem+json with Retry-After', async () => {
      for (const path of ['/.well-known/mcp', '/llms.txt', '/.well-known/oauth-authorization-server'])
        assert.equal((await fetch(instance.url + path)).status, 200, path);
      const r = await fetch(`${instance.url}/api/federation/manifest`, {
        headers: { origin: 'https://elsewhere.example' },
      });
      assert.equal(r.status, 429);
      assert.equal(r.headers.get('content-type'), 'application/problem+json; charset=utf-8');
      const wait = Number(r.headers.get('retry-after'));
      assert.ok(wait > 0 && wait <= 20, String(wait));
      // A browser elsewhere can read the refusal and when to come back.
      assert.equal(r.headers.get('access-control-allow-origin'), '*');
      assert.match(r.headers.get('access-control-expose-headers') ?? '', /Retry-After/);
      const body = (await r.json()) as Loose;
      assert.equal(body.code, 'request.rate_limited');
      assert.equal(body.retryAfter, wait);
      // The preflight is not counted.
      const preflight = await fetch(`${instance.url}/.well-known/mcp`, { method: 'OPTIONS' });
      assert.equal(preflight.status, 204);
    });

    test('given RATE_LIMIT_FEED=1/s, then a second read at once is 429 with Retry-After: 1, and after that second it is served again', async () => {
      const head = await eventCount(instance);
      assert.equal((await fetch(`${instance.url}/api/federation/events`)).status, 200);
      const refused = await fetch(`${instance.url}/api/federation/events?limit=500`);
      assert.equal(refused.status, 429);
      assert.equal(refused.headers.get('retry-after'), '1');
      assert.equal(((await refused.json()) as Loose).code, 'request.rate_limited');
      await new Promise((r) => setTimeout(r, 1050));
      assert.equal((await fetch(`${instance.url}/api/federation/events`)).status, 200);
      assert.equal(await eventCount(instance), head);
    });

    test('given RATE_LIMIT_REGISTRATION=2/h, then the third registration is refused and writes no event', async () => {
      assert.equal((await register(instance.url)).status, 201);
      assert.equal((await register(instance.url)).status, 201);
      const before = await eventCount(instance);
      const r = await register(instance.url);
      assert.equal(r.status, 429);
      assert.ok(Number(r.headers.get('retry-after')) > 1000); // 2 an hour: a token takes 30 minutes
      assert.equal(await eventCount(instance), before);
    });
  });

  describe('rate limits behind a trusted proxy', () => {
    let instance: TestInstance;
    beforeAll(async () => {
      instance = await startTestInstance({ env: { TRUST_PROXY: 'true', RATE_LIMIT_DISCOVERY: '2/min' } });
    });
    afterAll(async () => {
      await instance.stop();
    });

    test('given TRUST_PROXY=true, then the address the proxy appended is counted, not one the client wrote before it', async () => {
      const get = (xff: string) =>
        fetch(`${instance.url}/.well-known/mcp`, { headers: { 'x-forwarded-for': xff } }).then(
          (r) => r.status,
        );
      assert.equal(await get('203.0.113.1'), 200);
      assert.equal(await get('203.0.113.1'), 200);
      assert.equal(await get('203.0.113.1'), 429);
      // Another client behind the same proxy has its own budget.
      assert.equal(await get('203.0.113.2'), 200);
      // A client that writes its own X-Forwarded-For is still counted by the address the proxy saw.
      assert.equal(await get('198.51.100.9, 203.0.113.1'), 429);
      // IPv6 clients count by their /64.
      assert.equal(await get('2001:db8:1:2::1'), 200);
      assert.equal(await get('2001:db8:1:2:ffff::9'), 200);
      assert.equal(await get('2001:db8:1:2:0:0:0:42'), 429);
      assert.equal(await get('2001:db8:1:3::1'), 200);
    });
  });

  describe('Retry-After on every 429', () => {
    let instance: TestInstance;
    beforeAll(async () => {
      instance = await startTestInstance();
      await signUp(instance.url, 'ada');
    });
    afterAll(async () => {
      await instance.stop();
    });

    test("given too many wrong passwords on the consent pages' sign-in form, then 429 with Retry-After and no session", async () => {
      const form = await fetch(`${instance.url}/mcp/apps`);
      const cookie = form.headers
        .getSetCookie()
        .map((c) => c.split(';')[0])
        .join('; ');
      const csrf = /name="csrf" value="([^"]+)"/.exec(await form.text())![1]!;
      const attempt = (password: string) =>
        fetch(`${instance.url}/mcp/oauth/signin`, {
          method: 'POST',
          redirect: 'manual',
          headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
          body: new URLSearchParams({ csrf, return_to: '/mcp/apps', identifier: 'ada', password }),
        });
      for (let i = 0; i < 5; i++) assert.equal((await attempt('wrong')).status, 401);
      const refused = await attempt('correct horse battery staple');
      assert.equal(refused.status, 429);
      const wait = Number(refused.headers.get('retry-after'));
      assert.ok(wait > 0, `Retry-After: ${refused.headers.get('retry-after')}`);
      const page = await refused.text();
      assert.match(page, /data-error-code="auth\.throttled"/);
      assert.match(page, /Too many tries with a wrong password[^<]*Try again in \d+ (seconds?|minutes)\./);
      assert.equal(refused.headers.getSetCookie().filter((c) => c.includes('session')).length, 0);
    });
  });

  describe('Cache-Control, CORS, 405 and the landing page', () => {
    let instance: TestInstance;
    let url: string;
    beforeAll(async () => {
      instance = await startTestInstance({ env: { INSTANCE_NAME: 'Riverside Commons' } });
      url = instance.url;
    });
    afterAll(async () => {
      await instance.stop();
    });

    test('given each public document, then it answers with its own Cache-Control', async () => {
      for (const [path, cache] of DOCUMENTS) {
        const r = await fetch(url + path);
        assert.equal(r.status, 200, path);
        assert.equal(r.headers.get('cache-control'), cache, path);
      }
      for (const path of LIVE_READS) {
        const r = await fetch(url + path);
        assert.equal(r.status, 200, path);
        assert.match(r.headers.get('cache-control') ?? '', /^no-(cache|store)$/, path);
      }
    });

    test('given the feed, then a page that more events follow may be cached, and one that reaches the head must be revalidated', async () => {
      await signUp(url, 'ada'); // a few public events in the feed
      await instance.instance.sequencer.drain();
      const all = (await (await fetch(`${url}/api/federation/events?limit=500`)).json()) as Loose;
      assert.ok(all.events.length >= 2, JSON.stringify(all));
      const full = await fetch(`${url}/api/federation/events?since=0&limit=1`);
      assert.equal(((await full.json()) as Loose).hasMore, true);
      assert.equal(full.headers.get('cache-control'), 'public, max-age=300');
      const open = await fetch(`${url}/api/federation/events?since=0&limit=500`);
      assert.equal(((await open.json()) as Loose).hasMore, false);
      assert.equal(open.headers.get('cache-control'), 'no-cache');
      const bad = await fetch(`${url}/api/federation/events?limit=9999`);
      assert.equal(bad.status, 400);
      assert.equal(bad.headers.get('cache-control'), 'no-store');
    });

    test('given a session, then its answers are never stored', async () => {
      const ben = await signUp(url, 'ben');
      for (const path of ['/api/auth/me', '/api/mcp/token', '/mcp/apps']) {
        const r = await ben.browser.get(path);
        assert.equal(r.status, 200, path);
        assert.equal(r.headers.get('cache-control'), 'no-store', path);
      }
    });

    test('given a cross-origin GET or preflight, then every public document answers CORS alike', async () => {
      const origin = 'https://elsewhere.example';
      for (const path of [...DOCUMENTS.map(([p]) => p), ...LIVE_READS, '/.well-known/matrix/client']) {
        const get = await fetch(url + path, { headers: { origin } });
        assert.equal(get.headers.get('access-control-allow-origin'), '*', `GET ${path}`);
        const bare = path.split('?')[0]!;
        const pre = await fetch(url + bare, {
          method: 'OPTIONS',
          headers: { origin, 'access-control-request-method': 'GET' },
        });
        assert.equal(pre.status, 204, `OPTIONS ${path}`);
        assert.equal(pre.headers.get('access-control-allow-origin'), '*', `OPTIONS ${path}`);
        assert.match(pre.headers.get('access-control-allow-methods') ?? '', /\bGET\b/, `OPTIONS ${path}`);
      }
    });

    test('given a known route asked with a method it does not answer, then 405 route.method_not_allowed with Allow from the routes, writing nothing', async () => {
      const before = await eventCount(instance);
      const cases: [method: string, path: string, allow: string][] = [
        ['POST', '/api/federation/events', 'GET, HEAD, OPTIONS'],
        ['DELETE', '/api/auth/me', 'GET, HEAD, OPTIONS'],
        ['GET', '/api/auth/signup', 'OPTIONS, POST'],
        ['PUT', '/api/federation/peers', 'GET, HEAD, OPTIONS, PATCH, POST'],
        ['GET', '/api/mcp/oauth/register', 'OPTIONS, POST'],
        ['DELETE', '/api/federation/registry/7d0f4f5e-3b7c-4c89-9a55-0a0b0c0d0e0f', 'GET, HEAD, OPTIONS'],
        ['GET', '/api/ops/svc.agent.create_persona', 'OPTIONS, POST'],
      ];
      for (const [method, path, allow] of cases) {
        const r = await fetch(url + path, { method });
        assert.equal(r.status, 405, `${method} ${path}`);
        assert.equal(r.headers.get('allow'), allow, `${method} ${path}`);
        assert.equal(r.headers.get('content-type'), 'application/problem+json; charset=utf-8');
        assert.equal(((await r.json()) as Loose).code, 'route.method_not_allowed');
      }
      // OPTIONS on such a route says what it answers.
      const options = await fetch(`${url}/api/auth/me`, { method: 'OPTIONS' });
      assert.equal(options.status, 204);
      assert.equal(options.headers.get('allow'), 'GET, HEAD, OPTIONS');
      // A path no route has stays 404.
      const missing = await fetch(`${url}/api/nosuch`, { method: 'POST' });
      assert.equal(missing.status, 404);
      assert.equal(((await missing.json()) as Loose).code, 'route.not_found');
      assert.equal(await eventCount(instance), before);
    });

    test('given a browser (Accept: text/html first) lands on an unknown path or a refused method, then a page with the status kept, a link home and the code in small print; API clients keep problem+json', async () => {
      const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,*/*;q=0.8';
      const page = async (method: string, path: string, status: number, code: string) => {
        const r = await fetch(url + path, { method, headers: { accept: BROWSER } });
        assert.equal(r.status, status, `${method} ${path}`);
        assert.match(r.headers.get('content-type') ?? '', /^text\/html/, `${method} ${path}`);
        assert.match(r.headers.get('content-security-policy') ?? '', /default-src 'none'/);
        const body = await r.text();
        assert.match(body, /<main id="main"/);
        assert.match(body, /<a href="\/">Go to the start page<\/a>/);
        assert.match(body, new RegExp(`<p class="small muted">Error code: <code data-error-code="${code}">`));
        assert.doesNotMatch(body, /"type":"urn:tributary/);
        return r;
      };
      const missing = await page('GET', '/no/such/page', 404, 'route.not_found');
      assert.equal(missing.headers.get('allow'), null);
      const wrongMethod = await page('GET', '/api/auth/signup', 405, 'route.method_not_allowed');
      assert.equal(wrongMethod.headers.get('allow'), 'OPTIONS, POST');
      // A navigation to a public document that refuses (a malformed id) is a page too.
      await page('GET', '/wow/world/not-a-uuid', 400, 'spatial.id_invalid');

      // API clients: */*, no Accept, JSON first, or JSON alone keep problem+json.
      for (const accept of ['*/*', undefined, 'application/json, text/html', 'application/json']) {
        const r = await fetch(`${url}/no/such/page`, { headers: accept ? { accept } : {} });
        assert.equal(r.status, 404, `accept ${accept}`);
        assert.equal(
          r.headers.get('content-type'),
          'application/problem+json; charset=utf-8',
          `accept ${accept}`,
        );
        assert.equal(((await r.json()) as Loose).code, 'route.not_found');
      }
      // A browser's form post that an API route refuses is not a navigation: problem+json stays.
      const post = await fetch(`${url}/api/auth/signin`, {
        method: 'POST',
        headers: { accept: BROWSER, 'content-type': 'application/json', origin: url },
        body: '{',
      });
      assert.equal(post.headers.get('content-type'), 'application/problem+json; charset=utf-8');
    });

    test('given GET /, then a page naming the instance, its role and key, with links to sign in, the docs, /llms.txt and the MCP endpoint', async () => {
      const r = await fetch(`${url}/`);
      assert.equal(r.status, 200);
      assert.match(r.headers.get('content-type') ?? '', /^text\/html/);
      assert.match(r.headers.get('content-security-policy') ?? '', /default-src 'none'/);
      const html = await r.text();
      const manifest = (await (await fetch(`${url}/api/federation/manifest`)).json()) as Loose;
      assert.match(html, /<h1>Riverside Commons<\/h1>/);
      assert.match(html, /data-field="role">person</);
      assert.ok(html.includes(`data-field="key-id"><code>${manifest.keyId}</code>`), 'the key id');
      assert.ok(html.includes(`data-field="instance-id"><code>${manifest.instanceId}</code>`));
      assert.ok(html.includes(`<code data-field="mcp-endpoint">${url}/api/mcp</code>`));
      for (const href of [
        '/mcp/apps',
        '/llms.txt',
        '/.well-known/mcp',
        '/api/openapi.json',
        '/api/federation/manifest',
      ])
        assert.ok(html.includes(`href="${href}"`), href);
      // The sign-in link leads to a sign-in form.
      const signIn = await fetch(`${url}/mcp/apps`);
      assert.match(await signIn.text(), /action="\/mcp\/oauth\/signin"/);
    });
  });
});
