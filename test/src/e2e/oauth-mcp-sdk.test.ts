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
import { after, before, describe, test } from 'node:test';
import { signUp, structured, type Person } from './mcp-helpers.js';
import { consent, REDIRECT } from './oauth-helpers.js';

/** An in-memory provider: what a desktop MCP client keeps on disk. */
class MemoryProvider implements OAuthClientProvider {
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
      scope: 'svc.profile.read',
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
    this.saved = tokens;
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

describe('MCP SDK client with OAuth', () => {
  let instance: TestInstance;
  let url: string;
  let ada: Person;

  before(async () => {
    instance = await startTestInstance();
    url = instance.url;
    ada = await signUp(url, 'ada');
  });
  after(async () => {
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
});
