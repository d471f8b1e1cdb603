// The external assistant provider's client against a scripted outbound client: the RFC 8628, RFC 6749 and
// RFC 7009 answers mapped to outcomes and stable codes, unusable answers refused, and what it sends (a
// public client: client_id in the form, the bearer only to the models endpoint).
import { domainError, isDomainError } from '@tributary/domain';
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { createAssistantProviderClient, type OutboundHttp, type OutboundResponse } from '../src/index.js';

interface Sent {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string;
}

function scripted(answers: (Partial<{ status: number; json: unknown; text: string }> | Error)[]) {
  const sent: Sent[] = [];
  const outbound: OutboundHttp = {
    policy: { allows: () => true },
    checkUrl: async (u) => new URL(u),
    open: () => Promise.reject(new Error('the provider client reads whole answers')),
    async request(url, r = {}) {
      sent.push({
        url: String(url),
        method: r.method ?? 'GET',
        headers: r.headers ?? {},
        body: r.body === undefined ? '' : String(r.body),
      });
      const a = answers.shift() ?? { status: 500 };
      if (a instanceof Error) throw a;
      const text = a.text ?? (a.json === undefined ? '' : JSON.stringify(a.json));
      const res: OutboundResponse = {
        url: String(url),
        status: a.status ?? 200,
        header: () => undefined,
        body: Buffer.from(text),
        text: () => text,
      };
      return res;
    },
  };
  const client = createAssistantProviderClient({
    outbound,
    settings: {
      name: 'p',
      deviceUrl: 'https://p.example/device',
      tokenUrl: 'https://p.example/token',
      revokeUrl: 'https://p.example/revoke',
      modelsUrl: 'https://p.example/v1/models',
      clientId: 'client-1',
      scope: 'a b',
    },
  });
  return { client, sent };
}

async function codeOf(p: Promise<unknown>): Promise<{ code: string; details: unknown; message: string }> {
  try {
    await p;
  } catch (e) {
    if (isDomainError(e)) return { code: e.code, details: e.details, message: e.message };
    throw e;
  }
  return { code: 'no error', details: undefined, message: '' };
}

const device = {
  device_code: 'dc',
  user_code: 'BCDF-GHJK',
  verification_uri: 'https://p.example/activate',
  expires_in: 600,
};

describe('assistant provider client', () => {
  test('given a device authorization, then the public client asks with its id and scope, and the interval defaults to 5 s', async () => {
    const { client, sent } = scripted([{ json: device }]);
    const d = await client.startDeviceAuthorization();
    assert.deepEqual([d.deviceCode, d.intervalSeconds, d.expiresInSeconds], ['dc', 5, 600]);
    assert.equal(sent[0]!.method, 'POST');
    assert.deepEqual(Object.fromEntries(new URLSearchParams(sent[0]!.body)), {
      scope: 'a b',
      client_id: 'client-1',
    });
    assert.equal(sent[0]!.headers.authorization, undefined);
  });

  test('given an unusable device answer, then assistant.provider_error: a verification URI that is not http(s), garbage, a refusal', async () => {
    for (const answer of [
      { json: { ...device, verification_uri: 'javascript:alert(1)' } },
      { json: { ...device, verification_uri_complete: 'data:text/html,x' } },
      { text: 'not json' },
      { status: 401, json: { error: 'invalid_client' } },
    ]) {
      const { client } = scripted([answer]);
      assert.equal((await codeOf(client.startDeviceAuthorization())).code, 'assistant.provider_error');
    }
    const { client } = scripted([{ status: 400, json: { error: 'invalid_scope' } }]);
    assert.deepEqual((await codeOf(client.startDeviceAuthorization())).details, {
      status: 400,
      providerError: 'invalid_scope',
    });
  });

  test('given each RFC 8628 poll answer, then its outcome; anything else is assistant.provider_error naming the error', async () => {
    const { client, sent } = scripted([
      { status: 400, json: { error: 'authorization_pending' } },
      { status: 400, json: { error: 'slow_down' } },
      { status: 400, json: { error: 'access_denied' } },
      { status: 400, json: { error: 'expired_token' } },
      {
        json: {
          access_token: 'at',
          token_type: 'Bearer',
          refresh_token: 'rt',
          expires_in: 3600,
          scope: 'b a',
        },
      },
      { status: 400, json: { error: 'invalid_grant', error_description: 'x' } },
      { json: { access_token: 'at', token_type: 'mac' } },
    ]);
    const kinds = [];
    for (let i = 0; i < 5; i++) kinds.push((await client.pollDeviceToken('dc')).kind);
    assert.deepEqual(kinds, ['pending', 'slow_down', 'denied', 'expired', 'tokens']);
    assert.deepEqual(Object.fromEntries(new URLSearchParams(sent[0]!.body)), {
      grant_type: 'urn:ietf:params:oauth:grant-type:device_code',
      device_code: 'dc',
      client_id: 'client-1',
    });
    const refused = await codeOf(client.pollDeviceToken('dc'));
    assert.deepEqual(
      [refused.code, refused.details],
      ['assistant.provider_error', { status: 400, providerError: 'invalid_grant' }],
    );
    assert.equal((await codeOf(client.pollDeviceToken('dc'))).code, 'assistant.provider_error');
  });

  test('given a refresh the provider refuses as invalid_grant, then assistant.account_reconnect_needed; a token is never in a message', async () => {
    const { client } = scripted([
      { status: 400, json: { error: 'invalid_grant' } },
      { status: 503, text: 'down' },
    ]);
    const refused = await codeOf(client.refresh('secret-refresh-token'));
    assert.equal(refused.code, 'assistant.account_reconnect_needed');
    assert.ok(!refused.message.includes('secret-refresh-token'));
    assert.deepEqual((await codeOf(client.refresh('secret-refresh-token'))).details, { status: 503 });
  });

  test('given the models endpoint, then the bearer goes there; a 401 is reconnect_needed and garbage provider_error', async () => {
    const { client, sent } = scripted([
      { json: { object: 'list', data: [{ id: 'm', owned_by: 'o', created: 1 }] } },
      { status: 401, json: {} },
      { json: { data: 'nope' } },
    ]);
    assert.deepEqual(await client.listModels('at'), [{ id: 'm', ownedBy: 'o', created: 1 }]);
    assert.equal(sent[0]!.headers.authorization, 'Bearer at');
    assert.equal((await codeOf(client.listModels('at'))).code, 'assistant.account_reconnect_needed');
    assert.equal((await codeOf(client.listModels('at'))).code, 'assistant.provider_error');
  });

  test('given revocation, then RFC 7009 form fields; a refusal is provider_error; an unreachable provider is provider_error with the outbound code', async () => {
    const { client, sent } = scripted([
      { status: 200, text: '' },
      { status: 400, json: { error: 'invalid_grant' } },
      new Error('x'),
    ]);
    await client.revoke('rt', 'refresh_token');
    assert.deepEqual(Object.fromEntries(new URLSearchParams(sent[0]!.body)), {
      token: 'rt',
      token_type_hint: 'refresh_token',
      client_id: 'client-1',
    });
    assert.equal((await codeOf(client.revoke('rt', 'refresh_token'))).code, 'assistant.provider_error');
    await assert.rejects(client.revoke('rt', 'refresh_token'), /x/); // not a DomainError: not ours to hide
    const down = scripted([domainError('outbound.unreachable', 'unavailable', 'refused')]);
    assert.deepEqual((await codeOf(down.client.startDeviceAuthorization())).details, {
      reason: 'outbound.unreachable',
    });
  });
});
