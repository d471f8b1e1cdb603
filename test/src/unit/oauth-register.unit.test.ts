// Dynamic client registration (RFC 7591) on the real pipeline over the in-memory log: what a client
// may register, and the RFC's error codes (as oauth.<code>) for what it may not, each writing nothing.
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { unitInstance } from './given-when-then.js';

const REGISTER = 'svc.oauth.register';
const anonymous = { kind: 'anonymous' } as const;
const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

describe('svc.oauth.register', () => {
  test('given anyone, when a client registers https and loopback redirects, then oauth_client.registered and the RFC 7591 answer', async () => {
    const t = await unitInstance();
    const input = {
      client_name: '  Notes app  ',
      client_uri: 'https://notes.example/about',
      redirect_uris: ['https://notes.example/cb', 'http://127.0.0.1:8123/cb', 'http://localhost/cb'],
      token_endpoint_auth_method: 'client_secret_basic',
      software_id: 'ignored',
    };
    const answer = (await t.when<Record<string, unknown>>(REGISTER, input, anonymous)).thenEvents([
      {
        type: 'oauth_client.registered',
        data: {
          clientName: 'Notes app',
          redirectUris: input.redirect_uris,
          grantTypes: ['authorization_code', 'refresh_token'],
          clientUri: 'https://notes.example/about',
        },
      },
    ]);
    const event = t.store.all().at(-1)!;
    assert.equal(event.stream, `oauth-client-${String(answer.client_id)}`);
    assert.equal(event.data.clientId, answer.client_id);
    assert.equal('scope' in event.data, false, 'no scope registered, none recorded');
    assert.deepEqual(
      { ...answer, client_id: 'x', client_id_issued_at: 0 },
      {
        client_id: 'x',
        client_id_issued_at: 0,
        client_name: 'Notes app',
        redirect_uris: input.redirect_uris,
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
        client_uri: 'https://notes.example/about',
      },
    );
  });

  test('given a device-grant client without a name or redirects, then it registers as "Unnamed client" with no response types', async () => {
    const t = await unitInstance();
    const answer = (
      await t.when<Record<string, unknown>>(REGISTER, { grant_types: [DEVICE_GRANT] }, anonymous)
    ).thenEvents([
      {
        type: 'oauth_client.registered',
        data: { clientName: 'Unnamed client', redirectUris: [], grantTypes: [DEVICE_GRANT] },
      },
    ]);
    assert.deepEqual(answer.response_types, []);
  });

  test('given a scope of supported scopes, then it is recorded once each, in order; an unsupported one is oauth.invalid_client_metadata', async () => {
    const t = await unitInstance();
    const supported = t.services.config.scopesSupported;
    assert.ok(supported.length >= 2, 'the instance supports scopes');
    const [a, b] = supported as [string, string];
    const answer = (
      await t.when<Record<string, unknown>>(
        REGISTER,
        { grant_types: [DEVICE_GRANT], scope: ` ${b} ${a}  ${b} ` },
        anonymous,
      )
    ).thenEvents([{ type: 'oauth_client.registered', data: { scope: `${b} ${a}` } }]);
    assert.equal(answer.scope, `${b} ${a}`);
    (
      await t.when(REGISTER, { grant_types: [DEVICE_GRANT], scope: `${a} svc.nothing.read` }, anonymous)
    ).thenError('oauth.invalid_client_metadata');
  });

  test('given a redirect_uri that is not https (or http on loopback), has a fragment, a wildcard or credentials, or is not a URL, then oauth.invalid_redirect_uri', async () => {
    const t = await unitInstance();
    for (const uri of [
      'http://notes.example/cb',
      'https://notes.example/cb#frag',
      'https://*.notes.example/cb',
      'https://user:pw@notes.example/cb',
      'notes.example/cb',
      'javascript:alert(1)',
      'http://127.0.0.2/cb',
    ])
      (await t.when(REGISTER, { redirect_uris: [uri] }, anonymous)).thenError('oauth.invalid_redirect_uri');
    // The authorization_code grant (the default) needs somewhere to send the code.
    (await t.when(REGISTER, { client_name: 'No redirects' }, anonymous)).thenError(
      'oauth.invalid_redirect_uri',
    );
  });

  test('given an unsupported grant or response type, or a client_uri that is not http(s), then oauth.invalid_client_metadata', async () => {
    const t = await unitInstance();
    const redirect_uris = ['https://notes.example/cb'];
    for (const input of [
      { redirect_uris, grant_types: ['client_credentials'] },
      { redirect_uris, grant_types: ['implicit', 'authorization_code'] },
      { redirect_uris, response_types: ['token'] },
      { redirect_uris, client_uri: 'ftp://notes.example' },
      { redirect_uris, client_uri: 'https://user:pw@notes.example' },
    ])
      (await t.when(REGISTER, input, anonymous)).thenError('oauth.invalid_client_metadata');
  });

  test('given members past the schema bounds, then input.invalid', async () => {
    const t = await unitInstance();
    const many = Array.from({ length: 21 }, (_, i) => `https://notes.example/cb${i}`);
    for (const input of [
      { redirect_uris: many },
      { redirect_uris: ['https://notes.example/' + 'x'.repeat(2000)] },
      { redirect_uris: ['https://notes.example/cb'], client_name: 'n'.repeat(201) },
      { redirect_uris: 'https://notes.example/cb' },
    ])
      (await t.when(REGISTER, input, anonymous)).thenError('input.invalid');
  });
});
