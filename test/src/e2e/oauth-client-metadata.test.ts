// Client ID Metadata Documents: a client_id that is the URL of the client's metadata. A real HTTP server
// in the test serves the documents (loopback http is allowed outside production); openid-client runs the
// whole authorization-code flow with such a client_id. Every refusal gets invalid_client (or, for a
// redirect_uri the document does not list, invalid_request) on the page, is never redirected, and writes
// nothing. In production mode private addresses and plain http are refused before any connection.
import { startTestInstance, type TestInstance } from '@tributary/test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, test } from 'vitest';
import * as oidc from 'openid-client';
import { movableClock, signUp, type Person } from './mcp-helpers.js';
import { authorizeUrl, consent, formFields, insecure, mcpPing, REDIRECT } from './oauth-helpers.js';

interface Served {
  status?: number;
  headers?: Record<string, string>;
  body?: string;
  delayMs?: number;
}

/** A tiny HTTP server: path → what to answer; counts the requests per path. */
async function documentServer() {
  const routes = new Map<string, Served>();
  const hits = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const path = req.url ?? '/';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const r = routes.get(path) ?? { status: 404, body: 'not here' };
    setTimeout(() => {
      if (res.destroyed) return;
      res.writeHead(r.status ?? 200, { 'content-type': 'application/json', ...r.headers });
      res.end(r.body ?? '');
    }, r.delayMs ?? 0);
  });
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const port = (server.address() as AddressInfo).port;
  const base = `http://127.0.0.1:${port}`;
  return {
    port,
    base,
    hits: (path: string) => hits.get(path) ?? 0,
    /** Serves a metadata document at `path`; `doc` fields override a good one whose client_id is its URL. */
    serve(path: string, doc: Record<string, unknown> = {}, o: Served = {}) {
      const clientId = `${base}${path}`;
      routes.set(path, {
        body: JSON.stringify({
          client_id: clientId,
          client_name: 'Doc Agent',
          redirect_uris: [REDIRECT],
          grant_types: ['authorization_code', 'refresh_token'],
          response_types: ['code'],
          token_endpoint_auth_method: 'none',
          ...doc,
        }),
        ...o,
      });
      return clientId;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('OAuth Client ID Metadata Documents', () => {
  let instance: TestInstance;
  let url: string;
  let ada: Person;
  let docs: Awaited<ReturnType<typeof documentServer>>;
  const clock = movableClock();

  beforeAll(async () => {
    docs = await documentServer();
    instance = await startTestInstance({ clock, env: { OAUTH_CLIENT_METADATA_TIMEOUT_MS: '500' } });
    url = instance.url;
    ada = await signUp(url, 'ada');
  });
  afterAll(async () => {
    await instance.stop();
    await docs.close();
  });

  const eventCount = async () =>
    Number(
      (await instance.instance.pool.query<{ n: string }>(`SELECT count(*) AS n FROM events`)).rows[0]!.n,
    );
  const configFor = (clientId: string) =>
    oidc.discovery(new URL(url), clientId, undefined, oidc.None(), insecure);
  /** The authorize page for this client (no session needed to see a client refused). */
  const authorizePage = async (clientId: string, redirectUri = REDIRECT) => {
    const u = new URL(`${url}/mcp/oauth/authorize`);
    const verifier = oidc.randomPKCECodeVerifier();
    u.search = new URLSearchParams({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: redirectUri,
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      scope: 'svc.profile.read',
      state: 's',
    }).toString();
    const r = await fetch(u, { redirect: 'manual', headers: { cookie: ada.browser.cookie } });
    const html = await r.text();
    return { status: r.status, html, error: /data-oauth-error>([^<]+)</.exec(html)?.[1] };
  };

  test('given the instance, then its metadata says client_id_metadata_document_supported', async () => {
    const m = (await (await fetch(`${url}/.well-known/oauth-authorization-server`)).json()) as Record<
      string,
      unknown
    >;
    assert.equal(m.client_id_metadata_document_supported, true);
  });

  test('given a client whose client_id is its metadata URL, when openid-client runs the code flow, then it gets tokens that call a tool, with one fetch of the document', async () => {
    const clientId = docs.serve('/apps/agent.json', {}, { headers: { 'cache-control': 'max-age=3600' } });
    const config = await configFor(clientId);
    const a = await authorizeUrl(config, 'svc.profile.read');
    const page = await fetch(a.url, { headers: { cookie: ada.browser.cookie } }).then((r) => r.text());
    assert.match(page, /Allow Doc Agent\?/);
    assert.ok(page.includes(`It describes itself at ${clientId}`));
    const c = await consent(url, ada, a.url);
    assert.equal(c.status, 303, c.html);
    const tokens = await oidc.authorizationCodeGrant(config, new URL(c.location!), {
      pkceCodeVerifier: a.verifier,
      expectedState: a.state,
    });
    assert.equal(await mcpPing(url, tokens.access_token), 200);
    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    assert.equal(await mcpPing(url, refreshed.access_token), 200);
    const list = await ada.browser.get('/api/mcp/token');
    assert.ok(
      list.json.tokens.some(
        (t: { label: string; client: string }) => t.label === 'OAuth: Doc Agent' && t.client === clientId,
      ),
    );
    // Consent page, consent post, code exchange and refresh: one fetch, then the cache.
    assert.equal(docs.hits('/apps/agent.json'), 1);
    // Nothing about the client itself is in the log: the document is its registration.
    // (This instance has only document clients.)
    const { rows } = await instance.instance.pool.query(
      `SELECT 1 FROM events WHERE type = 'oauth_client.registered'`,
    );
    assert.equal(rows.length, 0);
  });

  test('given Cache-Control, then the document is cached that long within [60 s, 24 h]', async () => {
    const short = docs.serve('/apps/short.json', {}, { headers: { 'cache-control': 'max-age=5' } });
    const long = docs.serve(
      '/apps/long.json',
      {},
      { headers: { 'cache-control': 'public, max-age=31536000' } },
    );
    const none = docs.serve('/apps/none.json', {}, { headers: { 'cache-control': 'no-store' } });
    for (const id of [short, long, none]) assert.equal((await authorizePage(id)).status, 200);
    clock.advance(30_000);
    for (const id of [short, long, none]) assert.equal((await authorizePage(id)).status, 200);
    assert.deepEqual(['/apps/short.json', '/apps/long.json', '/apps/none.json'].map(docs.hits), [1, 1, 1]);
    clock.advance(31_000); // 61 s: past the 60 s floor, far from a day
    for (const id of [short, long, none]) assert.equal((await authorizePage(id)).status, 200);
    assert.deepEqual(['/apps/short.json', '/apps/long.json', '/apps/none.json'].map(docs.hits), [2, 1, 2]);
    clock.advance(24 * 60 * 60 * 1000); // past the day ceiling, whatever max-age said
    assert.equal((await authorizePage(long)).status, 200);
    assert.equal(docs.hits('/apps/long.json'), 2);
  });

  test('given a document that cannot be used, when its client_id is presented, then invalid_client, no redirect, nothing written', async () => {
    const before = await eventCount();
    const cases: [string, string, RegExp][] = [
      [
        'mismatched client_id',
        docs.serve('/bad/mismatch.json', { client_id: `${docs.base}/someone-else.json` }),
        /not its URL/,
      ],
      ['too large', docs.serve('/bad/large.json', { padding: 'x'.repeat(6000) }), /larger than 5120 bytes/],
      ['too slow', docs.serve('/bad/slow.json', {}, { delayMs: 2000 }), /no answer within 500 ms/],
      [
        'a redirect URI registration would refuse',
        docs.serve('/bad/redirect-uri.json', { redirect_uris: ['http://example.com/cb'] }),
        /redirect_uri must be https/,
      ],
      ['a shared secret', docs.serve('/bad/secret.json', { client_secret: 'shh' }), /client_secret/],
      [
        'served through a redirect',
        docs.serve('/bad/moved.json', {}, { status: 302, headers: { location: '/apps/agent.json' } }),
        /redirects are not followed/,
      ],
      [
        'not JSON',
        docs.serve('/bad/html.json', {}, { headers: { 'content-type': 'text/html' } }),
        /not JSON/,
      ],
      ['missing', `${docs.base}/bad/nothing-here.json`, /answered 404/],
      ['no path', `${docs.base}/`, /must have a path/],
    ];
    for (const [what, clientId, why] of cases) {
      const started = Date.now();
      const p = await authorizePage(clientId);
      assert.equal(p.status, 400, `${what}: ${p.html}`);
      assert.equal(p.error, 'invalid_client', what);
      assert.match(p.html.replace(/&#39;|&quot;/g, "'"), why, what);
      assert.ok(Date.now() - started < 1900, `${what} took too long`);
    }
    // At the token and device endpoints the same client gets the JSON error.
    const mismatch = `${docs.base}/bad/mismatch.json`;
    const token = await fetch(`${url}/api/mcp/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        client_id: mismatch,
        code: 'x',
        redirect_uri: REDIRECT,
        code_verifier: oidc.randomPKCECodeVerifier(),
      }),
    });
    assert.equal(token.status, 401);
    assert.equal(((await token.json()) as { error: string }).error, 'invalid_client');
    const device = await fetch(`${url}/api/mcp/device/code`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: mismatch, scope: 'svc.profile.read' }),
    });
    assert.equal(device.status, 401);
    assert.equal(((await device.json()) as { error: string }).error, 'invalid_client');
    assert.equal(await eventCount(), before);
  });

  test('given a document that names scopes, then grants stay within them: an unsupported one refuses the document, and a refresh after the document narrowed gets no more than it now names', async () => {
    const bogus = docs.serve('/apps/bogus-scope.json', { scope: 'svc.profile.read svc.bogus.read' });
    const refused = await authorizePage(bogus);
    assert.equal(refused.status, 400);
    assert.equal(refused.error, 'invalid_client');

    const path = '/apps/scoped.json';
    const both = { scope: 'svc.profile.read svc.audit.read' };
    const clientId = docs.serve(path, both, { headers: { 'cache-control': 'max-age=60' } });
    const config = await configFor(clientId);
    const a = await authorizeUrl(config, 'svc.profile.read svc.audit.read');
    const c = await consent(url, ada, a.url);
    assert.equal(c.status, 303, c.html);
    const tokens = await oidc.authorizationCodeGrant(config, new URL(c.location!), {
      pkceCodeVerifier: a.verifier,
      expectedState: a.state,
    });
    assert.equal(tokens.scope, 'svc.audit.read svc.profile.read');

    docs.serve(path, { scope: 'svc.profile.read' }, { headers: { 'cache-control': 'max-age=60' } });
    clock.advance(61_000); // the cached document expires
    const before = await eventCount();
    await assert.rejects(
      oidc.refreshTokenGrant(config, tokens.refresh_token!, { scope: 'svc.audit.read' }),
      (e) => (e as { error?: string }).error === 'invalid_scope',
    );
    assert.equal(await eventCount(), before);
    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    assert.equal(refreshed.scope, 'svc.profile.read');
  });

  test('given a good document, when the redirect_uri is not one it lists, then the page refuses with invalid_request and does not redirect', async () => {
    const clientId = docs.serve('/apps/strict.json');
    const before = await eventCount();
    for (const other of ['http://127.0.0.1:9999/elsewhere', 'https://attacker.example/callback']) {
      const p = await authorizePage(clientId, other);
      assert.equal(p.status, 400);
      assert.equal(p.error, 'invalid_request');
    }
    assert.equal(await eventCount(), before);
  });

  test('given a document client with the device grant, when a person approves its code, then it polls a token; once its document breaks, a right code is refused with invalid_client and not counted as a wrong guess', async () => {
    const path = '/apps/device.json';
    const clientId = docs.serve(
      path,
      { redirect_uris: [], grant_types: ['urn:ietf:params:oauth:grant-type:device_code'] },
      { headers: { 'cache-control': 'max-age=60' } },
    );
    const config = await configFor(clientId);
    const enter = (userCode: string) =>
      fetch(`${url}/mcp/authorize?user_code=${userCode}`, { headers: { cookie: ada.browser.cookie } }).then(
        async (r) => ({ status: r.status, html: await r.text() }),
      );
    const d = await oidc.initiateDeviceAuthorization(config, { scope: 'svc.profile.read' });
    const page = await enter(d.user_code);
    assert.equal(page.status, 200, page.html);
    assert.match(page.html, /Connect Doc Agent\?/);
    const approved = await fetch(`${url}/api/mcp/device/approve`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        cookie: ada.browser.cookie,
        origin: url,
      },
      body: new URLSearchParams({ ...formFields(page.html, '/api/mcp/device/approve'), decision: 'approve' }),
    });
    assert.equal(approved.status, 200);
    const tokens = await oidc.pollDeviceAuthorizationGrant(config, { ...d, interval: 0 });
    assert.equal(await mcpPing(url, tokens.access_token), 200);

    // A second request while the document is good; then it breaks.
    const d2 = await oidc.initiateDeviceAuthorization(config, { scope: 'svc.profile.read' });

    // The document now claims another client_id; once the cached copy expires it is refused.
    docs.serve(path, { client_id: `${docs.base}/other.json` });
    clock.advance(61_000);
    try {
      for (let i = 0; i < 6; i++) {
        const again = await enter(d2.user_code);
        assert.equal(again.status, 400, again.html);
        assert.match(again.html, /data-oauth-error>invalid_client</);
      }
    } finally {
      clock.advance(-61_000);
    }
  });

  test('given an address policy that forbids an internal address, when a document redirects there or is served from there, then invalid_client with the outbound code and no request reaches it', async () => {
    const internalHits: string[] = [];
    const internal = http.createServer((req, res) => {
      internalHits.push(req.url ?? '');
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
    await new Promise<void>((r) => internal.listen(0, '127.0.0.2', r));
    const internalBase = `http://127.0.0.2:${(internal.address() as AddressInfo).port}`;
    const guarded = await startTestInstance({ env: { OUTBOUND_ALLOWED_ADDRESSES: '127.0.0.1' } });
    try {
      const moved = docs.serve(
        '/apps/moved-inside.json',
        {},
        {
          status: 307,
          headers: { location: `${internalBase}/apps/agent.json` },
        },
      );
      const cases: [string, RegExp][] = [
        [moved, /redirects are not followed.*\(outbound\.redirect_refused\)/],
        [
          `${internalBase.replace('http:', 'https:')}/apps/agent.json`,
          /public address.*\(outbound\.unsafe_url\)/,
        ],
      ];
      for (const [clientId, why] of cases) {
        const r = await fetch(`${guarded.url}/api/mcp/device/code`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ client_id: clientId, scope: 'svc.profile.read' }),
        });
        const body = (await r.json()) as { error: string; error_description: string };
        assert.equal(r.status, 401, clientId);
        assert.equal(body.error, 'invalid_client', clientId);
        assert.match(body.error_description, why, clientId);
      }
      assert.equal(docs.hits('/apps/moved-inside.json'), 1);
      assert.deepEqual(internalHits, []);
      const events = await guarded.instance.pool.query(`SELECT 1 FROM events WHERE type LIKE 'oauth%'`);
      assert.equal(events.rows.length, 0);
    } finally {
      await guarded.stop();
      internal.closeAllConnections();
      internal.close();
    }
  });

  test('given production mode, when a client_id points at a loopback or private address or is plain http, then invalid_client before any connection', async () => {
    const prod = await startTestInstance({ env: { NODE_ENV: 'production' } });
    try {
      const meta = (await (await fetch(`${prod.url}/.well-known/oauth-authorization-server`)).json()) as {
        client_id_metadata_document_supported: boolean;
      };
      assert.equal(meta.client_id_metadata_document_supported, true);
      const path = '/apps/agent.json';
      const hitsBefore = docs.hits(path);
      const cases: [string, RegExp][] = [
        [`https://127.0.0.1:${docs.port}${path}`, /public address/],
        [`https://localhost:${docs.port}${path}`, /public address/],
        [`https://[::1]:${docs.port}${path}`, /public address/],
        [`https://10.1.2.3${path}`, /public address/],
        [`https://169.254.169.254/latest/meta-data`, /public address/],
        [`http://127.0.0.1:${docs.port}${path}`, /must be https/],
      ];
      for (const [clientId, why] of cases) {
        const r = await fetch(`${prod.url}/api/mcp/device/code`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ client_id: clientId, scope: 'svc.profile.read' }),
        });
        const body = (await r.json()) as { error: string; error_description: string };
        assert.equal(r.status, 401, clientId);
        assert.equal(body.error, 'invalid_client', clientId);
        assert.match(body.error_description, why, clientId);
      }
      assert.equal(docs.hits(path), hitsBefore);
      const events = await prod.instance.pool.query(`SELECT 1 FROM events WHERE type LIKE 'oauth%'`);
      assert.equal(events.rows.length, 0);
    } finally {
      await prod.stop();
    }
  });
});
