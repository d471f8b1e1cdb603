// Discovery and dynamic client registration (RFC 8414, RFC 9728, RFC 7591), driven by openid-client, an
// independent OAuth implementation. Registrations are events, so they outlive a restart.
import { startTestInstance, type TestInstance } from '@tributary/test';
import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import * as oidc from 'openid-client';

describe('OAuth discovery and client registration', () => {
  let instance: TestInstance;
  let url: string;
  const insecure = { execute: [oidc.allowInsecureRequests] };

  beforeAll(async () => {
    instance = await startTestInstance();
    url = instance.url;
  });
  afterAll(async () => {
    await instance.stop();
  });

  const register = (body: unknown) =>
    fetch(`${url}/api/mcp/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then(async (r) => ({ status: r.status, json: (await r.json()) as Record<string, unknown> }));
  const eventCount = async () =>
    Number(
      (await instance.instance.pool.query<{ n: string }>(`SELECT count(*) AS n FROM events`)).rows[0]!.n,
    );

  test('given the instance, when openid-client discovers it (OIDC and RFC 8414), then the metadata names BASE_URL and S256', async () => {
    for (const algorithm of ['oidc', 'oauth2'] as const) {
      const config = await oidc.discovery(new URL(url), 'nobody', undefined, oidc.None(), {
        ...insecure,
        algorithm,
      });
      const m = config.serverMetadata();
      assert.equal(m.issuer, url);
      assert.equal(m.token_endpoint, `${url}/api/mcp/oauth/token`);
      assert.equal(m.authorization_endpoint, `${url}/mcp/oauth/authorize`);
      assert.equal(m.registration_endpoint, `${url}/api/mcp/oauth/register`);
      assert.equal(m.device_authorization_endpoint, `${url}/api/mcp/device/code`);
      assert.deepEqual(m.code_challenge_methods_supported, ['S256']);
      assert.equal(m.authorization_response_iss_parameter_supported, true);
      assert.ok(m.grant_types_supported?.includes('urn:ietf:params:oauth:grant-type:device_code'));
      assert.ok(m.scopes_supported?.includes('svc.profile.read'));
    }
  });

  test('given a forged Host header, when the metadata is fetched, then its values still come from BASE_URL', async () => {
    const { request } = await import('node:http');
    const body = await new Promise<string>((resolve, reject) => {
      const req = request(
        `${url}/.well-known/oauth-authorization-server`,
        { headers: { host: 'evil.example' } },
        (res) => {
          let s = '';
          res.on('data', (c) => (s += c));
          res.on('end', () => resolve(s));
        },
      );
      req.on('error', reject);
      req.end();
    });
    const m = JSON.parse(body) as Record<string, string>;
    assert.equal(m.issuer, url);
    assert.ok(!body.includes('evil.example'));
  });

  test('given the MCP resource, when its RFC 9728 metadata is fetched (both forms), then it names this authorization server', async () => {
    for (const path of [
      '/.well-known/oauth-protected-resource',
      '/.well-known/oauth-protected-resource/api/mcp',
    ]) {
      const r = await fetch(url + path);
      const m = (await r.json()) as Record<string, unknown>;
      assert.equal(m.resource, `${url}/api/mcp`);
      assert.deepEqual(m.authorization_servers, [url]);
    }
  });

  test('given a client, when openid-client registers it dynamically, then it gets a public client id that survives a restart', async () => {
    const config = await oidc.dynamicClientRegistration(
      new URL(url),
      {
        redirect_uris: ['http://127.0.0.1:9999/callback'],
        client_name: 'Test Agent',
        token_endpoint_auth_method: 'none',
      },
      oidc.None(),
      insecure,
    );
    const meta = config.clientMetadata();
    assert.ok(meta.client_id);
    assert.equal(meta.token_endpoint_auth_method, 'none');
    assert.deepEqual(meta.redirect_uris, ['http://127.0.0.1:9999/callback']);
    const { rows } = await instance.instance.pool.query(`SELECT type FROM events WHERE stream = $1`, [
      `oauth-client-${meta.client_id}`,
    ]);
    assert.deepEqual(rows, [{ type: 'oauth_client.registered' }]);

    instance = await instance.restart();
    url = instance.url;
    const client = await instance.instance.services.oauth.read.oauthClient(meta.client_id);
    assert.equal(client?.clientName, 'Test Agent');
  });

  test('given bad redirect URIs or metadata, when a client registers, then it gets the RFC 7591 error and nothing is written', async () => {
    const before = await eventCount();
    const cases: [unknown, string][] = [
      [{ redirect_uris: ['http://example.com/cb'] }, 'invalid_redirect_uri'],
      [{ redirect_uris: ['https://example.com/cb#frag'] }, 'invalid_redirect_uri'],
      [{ redirect_uris: ['https://*.example.com/cb'] }, 'invalid_redirect_uri'],
      [{ redirect_uris: ['not a url'] }, 'invalid_redirect_uri'],
      [{ redirect_uris: ['javascript:alert(1)'] }, 'invalid_redirect_uri'],
      [{ client_name: 'no redirects' }, 'invalid_redirect_uri'],
      [{ redirect_uris: ['https://example.com/cb'], grant_types: ['implicit'] }, 'invalid_client_metadata'],
      [{ redirect_uris: ['https://example.com/cb'], response_types: ['token'] }, 'invalid_client_metadata'],
      [{ redirect_uris: 'https://example.com/cb' }, 'invalid_client_metadata'],
      [[1, 2], 'invalid_client_metadata'],
      [
        { redirect_uris: ['https://example.com/cb'], client_uri: 'javascript:alert(1)' },
        'invalid_client_metadata',
      ],
      [
        { redirect_uris: ['https://example.com/cb'], client_uri: 'https://bank.example@evil.example/' },
        'invalid_client_metadata',
      ],
      [
        { redirect_uris: ['https://example.com/cb'], client_uri: 'https://a.example/x y' },
        'invalid_client_metadata',
      ],
    ];
    for (const [body, code] of cases) {
      const r = await register(body);
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.equal(r.json.error, code, JSON.stringify(body));
    }
    assert.equal(await eventCount(), before);
  });

  test('given a device-only client, when it registers without redirect URIs, then it is accepted', async () => {
    const r = await register({
      client_name: 'cli',
      grant_types: ['urn:ietf:params:oauth:grant-type:device_code'],
    });
    assert.equal(r.status, 201);
    assert.deepEqual(r.json.redirect_uris, []);
  });
});
