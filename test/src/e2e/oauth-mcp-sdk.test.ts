// The official MCP SDK client with its OAuth client provider, starting from nothing but the endpoint:
// the bare 401 names the resource metadata, the SDK discovers the authorization server, registers
// itself, sends the person to consent (driven here through the real form), exchanges the code and calls
// a tool. Then it refreshes on its own when the access token is refused.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { startTestInstance, type TestInstance } from '@tributary/test';
import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { signUp, structured, type Person } from './mcp-helpers.js';
import { consent, REDIRECT } from './oauth-helpers.js';

/** An in-memory provider: what a desktop MCP client keeps on disk. */
class MemoryProvider implements OAuthClientProvider {
  /** The scope the client itself would fall back on; undefined leaves it to what the server names. */
  constructor(
    private readonly ownScope: string | undefined = 'svc.profile.read',
    /** A client may keep no refresh token; it then asks its person again whenever a token will not do. */
    private readonly keepsRefreshTokens = true,
  ) {}
  info: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = '';
  authorizationUrl: URL | undefined;
  get redirectUrl() {
    return REDIRECT;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'SDK Agent',
      redirect_uris: [REDIRECT],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      ...(this.ownScope !== undefined && { scope: this.ownScope }),
    };
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    if (this.keepsRefreshTokens) this.saved = tokens;
    else {
      const { refresh_token: _dropped, ...rest } = tokens;
      this.saved = rest;
    }
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(v: string) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier;
  }
}

/** The least-privilege default the 401 challenge names (docs/oauth.md). */
const DEFAULT_SCOPE = 'svc.agent.read svc.instance.read svc.profile.read';

describe('MCP SDK client with OAuth', () => {
  let instance: TestInstance;
  let url: string;
  let ada: Person;

  beforeAll(async () => {
    instance = await startTestInstance();
    url = instance.url;
    ada = await signUp(url, 'ada');
  });
  afterAll(async () => {
    await instance.stop();
  });

  test('given only the endpoint, when the SDK client connects, then it discovers, registers, gets consent and calls a tool', async () => {
    const provider = new MemoryProvider();
    const endpoint = new URL(`${url}/api/mcp`);
    const first = new StreamableHTTPClientTransport(endpoint, { authProvider: provider });
    const client = new Client({ name: 'sdk-agent', version: '1.0.0' });
    await assert.rejects(client.connect(first), UnauthorizedError);
    assert.ok(provider.info?.client_id, 'the SDK registered itself');
    const authUrl = provider.authorizationUrl!;
    assert.equal(authUrl.origin + authUrl.pathname, `${url}/mcp/oauth/authorize`);
    assert.equal(authUrl.searchParams.get('code_challenge_method'), 'S256');

    const c = await consent(url, ada, authUrl);
    assert.equal(c.status, 303, c.html);
    const back = new URL(c.location!);
    assert.equal(back.searchParams.get('iss'), url);
    await first.finishAuth(back.searchParams.get('code')!);
    assert.ok(provider.saved?.access_token);

    const transport = new StreamableHTTPClientTransport(endpoint, { authProvider: provider });
    const connected = new Client({ name: 'sdk-agent', version: '1.0.0' });
    await connected.connect(transport);
    const profile = structured(await connected.callTool({ name: 'svc.profile.read', arguments: {} }));
    assert.ok(profile);
    await connected.close();

    // A refused access token: the SDK refreshes with its rotating refresh token and carries on.
    const oldRefresh = provider.saved!.refresh_token;
    provider.saved = { ...provider.saved!, access_token: 'expired.or.revoked' };
    const again = new Client({ name: 'sdk-agent', version: '1.0.0' });
    await again.connect(new StreamableHTTPClientTransport(endpoint, { authProvider: provider }));
    assert.notEqual(provider.saved.refresh_token, oldRefresh);
    await again.close();
  });

  test('given a client with no scope of its own, when the SDK connects from the bare 401, then it registers and asks for the default read scopes only', async () => {
    const bare = await fetch(`${url}/api/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    assert.equal(bare.status, 401);
    assert.equal(
      bare.headers.get('www-authenticate'),
      `Bearer resource_metadata="${url}/.well-known/oauth-protected-resource", scope="${DEFAULT_SCOPE}"`,
    );

    const provider = new MemoryProvider(undefined);
    const first = new StreamableHTTPClientTransport(new URL(`${url}/api/mcp`), { authProvider: provider });
    await assert.rejects(
      new Client({ name: 'sdk-agent', version: '1.0.0' }).connect(first),
      UnauthorizedError,
    );
    const asked = provider.authorizationUrl!.searchParams.get('scope');
    assert.equal(asked, DEFAULT_SCOPE);
    for (const broad of ['svc.admin', 'svc.wallet.spend', 'svc.account.export', 'svc.profile.write'])
      assert.ok(!asked!.split(' ').includes(broad), broad);
    // It registered with that scope, so the grant can never be widened past it.
    assert.equal((provider.info as { scope?: string }).scope, DEFAULT_SCOPE);

    const c = await consent(url, ada, provider.authorizationUrl!);
    assert.equal(c.status, 303, c.html);
    await first.finishAuth(new URL(c.location!).searchParams.get('code')!);
    assert.equal(provider.saved?.scope, DEFAULT_SCOPE);
    const connected = new Client({ name: 'sdk-agent', version: '1.0.0' });
    await connected.connect(
      new StreamableHTTPClientTransport(new URL(`${url}/api/mcp`), { authProvider: provider }),
    );
    const names = (await connected.listTools()).tools.map((t) => t.name).sort();
    assert.deepEqual(names, [
      'svc.agent.list_followed',
      'svc.agent.list_personas',
      'svc.instance.context',
      'svc.profile.read',
    ]);
    await connected.close();
  });
  test("given an OAuth token without the scope a tool needs, when the SDK client calls it, then 403 insufficient_scope names the token's scopes plus the missing one, the client goes through consent again with them, retries, and the call succeeds", async () => {
    // Registered beforehand without a scope of its own, so its bound is everything the instance supports
    // (the SDK would otherwise register with the first challenge's scope, which then bounds the client).
    const registered = await fetch(`${url}/api/mcp/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_name: 'Step-up Agent',
        redirect_uris: [REDIRECT],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
      }),
    });
    assert.equal(registered.status, 201);
    // SDK 1.32 refreshes first when it holds a refresh token, and a refresh cannot widen a grant
    // (RFC 6749 §6), so this client keeps none: asked for more, it goes to consent.
    const provider = new MemoryProvider(undefined, false);
    provider.info = (await registered.json()) as OAuthClientInformationMixed;
    const endpoint = new URL(`${url}/api/mcp`);
    const first = new StreamableHTTPClientTransport(endpoint, { authProvider: provider });
    await assert.rejects(new Client({ name: 'step-up', version: '1.0.0' }).connect(first), UnauthorizedError);
    const c1 = await consent(url, ada, provider.authorizationUrl!);
    assert.equal(c1.status, 303, c1.html);
    await first.finishAuth(new URL(c1.location!).searchParams.get('code')!);
    assert.equal(provider.saved?.scope, DEFAULT_SCOPE);
    const narrowToken = provider.saved!.access_token;

    // What the SDK is answered, as it is sent.
    const raw = await fetch(endpoint, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${narrowToken}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: { name: 'svc.audit.recent', arguments: { limit: 5 } },
      }),
    });
    assert.equal(raw.status, 403);
    const wanted = 'svc.agent.read svc.audit.read svc.instance.read svc.profile.read';
    assert.equal(
      raw.headers.get('www-authenticate'),
      `Bearer error="insufficient_scope", scope="${wanted}", resource_metadata="${url}/.well-known/oauth-protected-resource", error_description="svc.audit.recent needs svc.audit.read"`,
    );
    const rawBody = (await raw.json()) as {
      id: number;
      error: { data: { code: string; missing: string[] } };
    };
    assert.equal(rawBody.id, 7);
    assert.equal(rawBody.error.data.code, 'auth.insufficient_scope');
    assert.deepEqual(rawBody.error.data.missing, ['svc.audit.read']);

    const transport = new StreamableHTTPClientTransport(endpoint, { authProvider: provider });
    const client = new Client({ name: 'step-up', version: '1.0.0' });
    await client.connect(transport);
    assert.ok(structured(await client.callTool({ name: 'svc.profile.read', arguments: {} })));
    provider.authorizationUrl = undefined;
    await assert.rejects(
      client.callTool({ name: 'svc.audit.recent', arguments: { limit: 5 } }),
      UnauthorizedError,
    );
    // The SDK read the challenge and asks for exactly what it named.
    assert.equal(provider.authorizationUrl!.searchParams.get('scope'), wanted);
    const c2 = await consent(url, ada, provider.authorizationUrl!);
    assert.equal(c2.status, 303, c2.html);
    await transport.finishAuth(new URL(c2.location!).searchParams.get('code')!);
    assert.equal(provider.saved?.scope, wanted);
    const recent = structured<{ entries: { tool: string; outcome: string; errorCode?: string }[] }>(
      await client.callTool({ name: 'svc.audit.recent', arguments: { limit: 10 } }),
    );
    // Both refused calls (the raw one and the SDK's) are in the provenance log, as refusals always are.
    const refused = recent.entries.filter(
      (e) => e.tool === 'svc.audit.recent' && e.errorCode === 'auth.insufficient_scope',
    );
    assert.equal(refused.length, 2, JSON.stringify(recent.entries));
    assert.ok(refused.every((e) => e.outcome === 'denied'));
    await client.close();

    // A token a person issued directly cannot be re-authorized: it keeps the tool error.
    const issued = await ada.browser.post('/api/mcp/token', {
      label: 'direct',
      scopes: ['svc.profile.read'],
    });
    assert.equal(issued.status, 201);
    const direct = await fetch(endpoint, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${issued.json.token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 8,
        method: 'tools/call',
        params: { name: 'svc.audit.recent', arguments: {} },
      }),
    });
    assert.equal(direct.status, 200);
    const result = (
      (await direct.json()) as {
        result: { isError: boolean; structuredContent: { error: { code: string } } };
      }
    ).result;
    assert.equal(result.isError, true);
    assert.equal(result.structuredContent.error.code, 'auth.insufficient_scope');
  });
});
