// The connected external-assistant account (docs/assistant.md#connected-account), end to end against a
// SECOND Tributary instance on loopback as the provider: its own device flow (/api/mcp/device/code,
// approval at /mcp/authorize by a person signed in there, /api/mcp/oauth/token), its refresh grant, its
// RFC 7009 revocation endpoint. The provider has no models endpoint: a small loopback server plays it,
// answering only for bearers the provider itself still accepts (an MCP ping there), and remembering them
// so the test can check a token after it is revoked. Pending, slow_down, success, models, refresh,
// disconnect with revocation, denied, expired, bad input, secrets at rest and on the log.
import { startTestInstance, type TestInstance } from '@tributary/test';
import assert from 'node:assert/strict';
import { stat } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { issueToken, mcpClient, movableClock, signUp, structured, type Person } from './mcp-helpers.js';
import { DEVICE_GRANT, formFields, mcpPing, registeredClient } from './oauth-helpers.js';

const MODELS = [
  { id: 'tributary-large', object: 'model', owned_by: 'provider', created: 1_700_000_000 },
  { id: 'tributary-small', object: 'model', owned_by: 'provider', created: 1_700_000_001 },
];

/** GET /v1/models for bearers the provider accepts; every bearer it was shown, in order. */
async function startModelsServer(providerUrl: string) {
  const bearers: string[] = [];
  const server = http.createServer((req, res) => {
    void (async () => {
      const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      if (req.method !== 'GET' || req.url !== '/v1/models' || !bearer) {
        res.writeHead(404).end();
        return;
      }
      bearers.push(bearer);
      if ((await mcpPing(providerUrl, bearer)) !== 200) {
        res.writeHead(401, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'invalid token' } }));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', data: MODELS }));
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1/models`,
    bearers,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('connected external-assistant account against a second instance', () => {
  let provider: TestInstance;
  let consumer: TestInstance;
  let models: Awaited<ReturnType<typeof startModelsServer>>;
  let pia: Person; // signed in at the provider: approves or refuses
  let ada: Person; // signed in here: connects her account
  let ben: Person;
  const providerClock = movableClock();
  const clock = movableClock();

  beforeAll(async () => {
    provider = await startTestInstance({
      clock: providerClock,
      env: { OAUTH_DEVICE_INTERVAL_SECONDS: '1' },
    });
    pia = await signUp(provider.url, 'pia');
    const client: oidc.Configuration = await registeredClient(provider.url, {
      redirect_uris: [],
      grant_types: [DEVICE_GRANT, 'refresh_token'],
      client_name: 'Tributary assistant',
    });
    models = await startModelsServer(provider.url);
    consumer = await startTestInstance({
      clock,
      env: {
        ASSISTANT_PROVIDER_NAME: 'provider-test',
        ASSISTANT_PROVIDER_DEVICE_URL: `${provider.url}/api/mcp/device/code`,
        ASSISTANT_PROVIDER_TOKEN_URL: `${provider.url}/api/mcp/oauth/token`,
        ASSISTANT_PROVIDER_REVOKE_URL: `${provider.url}/api/mcp/token/revoke`,
        ASSISTANT_PROVIDER_MODELS_URL: models.url,
        ASSISTANT_PROVIDER_CLIENT_ID: client.clientMetadata().client_id,
        ASSISTANT_PROVIDER_SCOPE: 'svc.profile.read',
      },
    });
    ada = await signUp(consumer.url, 'ada');
    ben = await signUp(consumer.url, 'ben');
  });
  afterAll(async () => {
    await consumer?.destroy();
    await provider?.destroy();
    await models?.close();
  });

  const pool = () => consumer.instance.pool;
  const poll = (person: Person, signInId: string, extra: Record<string, unknown> = {}) =>
    person.browser.post('/api/autobot/codex/device/poll', { signInId, ...extra });
  const start = (person: Person) => person.browser.post('/api/autobot/codex/device', {});
  /** Every event of the consumer's account streams, as stored (envelope text). */
  const accountEvents = async () =>
    (
      await pool().query<{ stream: string; type: string; envelope: string }>(
        `SELECT stream, type, envelope FROM events WHERE stream LIKE 'aaccount-%' ORDER BY position`,
      )
    ).rows;
  /** The person at the provider approves or refuses the user code on its device page. */
  async function decide(userCode: string, decision: 'approve' | 'deny') {
    const page = await fetch(`${provider.url}/mcp/authorize?user_code=${encodeURIComponent(userCode)}`, {
      headers: { cookie: pia.browser.cookie },
    });
    const html = await page.text();
    assert.equal(page.status, 200, html);
    const r = await fetch(`${provider.url}/api/mcp/device/approve`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        cookie: pia.browser.cookie,
        origin: provider.url,
      },
      body: new URLSearchParams({ ...formFields(html, '/api/mcp/device/approve'), decision }),
    });
    assert.equal(r.status, 200, await r.text());
  }

  test('given a provider, when a person signs in through pending and slow_down, then the account is connected, lists models, refreshes, and disconnecting revokes it at the provider', async () => {
    const none = await ada.browser.get('/api/autobot/codex');
    assert.equal(none.status, 200, none.text);
    assert.deepEqual(
      [none.json.result.connected, none.json.result.provider, none.json.result.account],
      [false, 'provider-test', null],
    );

    const status = async () =>
      (await ada.browser.get('/api/autobot/status')).json.result.connectedAccount.state;
    assert.equal(await status(), 'not_connected');
    const started = await start(ada);
    assert.equal(started.status, 201, started.text);
    assert.equal(await status(), 'sign_in_pending');
    const s = started.json.result;
    assert.match(s.userCode, /^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
    assert.equal(s.verificationUri, `${provider.url}/mcp/authorize`);
    assert.equal(s.intervalSeconds, 1);
    assert.equal(s.provider, 'provider-test');
    assert.equal(
      (await ada.browser.get('/api/autobot/codex')).json.result.pendingSignIn.signInId,
      s.signInId,
    );

    // Sooner than the interval: answered here, the provider is not asked.
    const early = await poll(ada, s.signInId);
    assert.equal(early.status, 200, early.text);
    assert.deepEqual(
      [early.json.result.status, early.json.result.code, early.json.result.providerPolled],
      ['pending', 'authorization_pending', false],
    );
    // After the interval: the provider says authorization_pending.
    clock.advance(1_100);
    const pending = await poll(ada, s.signInId);
    assert.deepEqual(
      [pending.json.result.status, pending.json.result.code, pending.json.result.providerPolled],
      ['pending', 'authorization_pending', true],
    );
    // Our interval has passed, the provider's (by its clock) has not: slow_down, and 5 s more from now on.
    clock.advance(1_100);
    const slow = await poll(ada, s.signInId);
    assert.deepEqual(
      [slow.json.result.status, slow.json.result.code, slow.json.result.intervalSeconds],
      ['slow_down', 'slow_down', 6],
    );
    clock.advance(1_100);
    const held = await poll(ada, s.signInId);
    assert.deepEqual([held.json.result.status, held.json.result.providerPolled], ['pending', false]);

    await decide(s.userCode, 'approve');
    clock.advance(6_000);
    providerClock.advance(7_000);
    const done = await poll(ada, s.signInId);
    assert.equal(done.status, 200, done.text);
    assert.equal(done.json.result.status, 'connected');
    const account = done.json.result.account;
    assert.equal(account.connected, true);
    assert.deepEqual(account.account.scopes, ['svc.profile.read']);
    assert.equal(account.account.provider, 'provider-test');
    assert.ok(account.account.accessExpiresAt);
    assert.equal(account.pendingSignIn, null);
    // Redeemed: the sign-in is gone.
    assert.equal((await poll(ada, s.signInId)).json.code, 'assistant.sign_in_not_found');

    const read = await ada.browser.get('/api/autobot/codex');
    assert.deepEqual(read.json.result, account);

    // The models, fetched with the account's access token (which the provider accepts).
    const listed = await ada.browser.get('/api/autobot/codex/models');
    assert.equal(listed.status, 200, listed.text);
    assert.deepEqual(listed.json.result, {
      provider: 'provider-test',
      models: MODELS.map((m) => ({ id: m.id, ownedBy: m.owned_by, created: m.created })),
    });
    assert.equal(models.bearers.length, 1);
    const firstAccess = models.bearers[0]!;

    // The secrets at rest: ciphertext only, in their own table; nothing of them in the log or answers.
    const rows = (
      await pool().query(`SELECT * FROM assistant_account_tokens WHERE agent_id = $1`, [ada.agentId])
    ).rows;
    assert.equal(rows.length, 1);
    assert.match(rows[0].access_token_sealed, /^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+$/);
    assert.match(rows[0].refresh_token_sealed, /^v1\./);
    assert.ok(!JSON.stringify(rows).includes(firstAccess));
    const events = await accountEvents();
    assert.deepEqual(
      events.map((e) => e.type),
      ['assistant.account_sign_in_started', 'assistant.account_connected'],
    );
    const everything = (await pool().query<{ envelope: string }>(`SELECT envelope FROM events`)).rows;
    assert.ok(!everything.some((e) => e.envelope.includes(firstAccess)), 'an access token is in the log');
    assert.ok(!read.text.includes(firstAccess) && !listed.text.includes(firstAccess));
    const key = await stat(join(consumer.dataDir, 'keys', 'assistant-secrets.key'));
    assert.equal(key.mode & 0o777, 0o600);

    // Over MCP, with a token that may read the assistant: the account, never a token.
    const token = await issueToken(ada, { scopes: ['svc.assistant.read'] });
    const mcp = await mcpClient(consumer.url, { bearer: token.token });
    const viaMcp = structured(await mcp.callTool({ name: 'svc.assistant.account.read', arguments: {} }));
    assert.equal(viaMcp.connected, true);
    assert.ok(!JSON.stringify(viaMcp).includes(firstAccess));
    // The status route and the settings' model choice see the account: only its models may be chosen.
    assert.equal(await status(), 'connected');
    const notOffered = await ada.browser.post('/api/autobot/settings', { model: 'gpt-unknown' });
    assert.deepEqual([notOffered.status, notOffered.json.code], [400, 'assistant.model_not_offered']);
    const chosen = await ada.browser.post('/api/autobot/settings', { model: 'tributary-small' });
    assert.equal(chosen.status, 200, chosen.text);
    const modelsViaMcp = structured(
      await mcp.callTool({ name: 'svc.assistant.account.list_models', arguments: {} }),
    );
    assert.equal(modelsViaMcp.models.length, 2);
    await mcp.close();

    // An hour on, the access token is about to expire: it is refreshed first, and the refresh recorded.
    clock.advance(3_600_000);
    const again = await ada.browser.get('/api/autobot/codex/models');
    assert.equal(again.status, 200, again.text);
    const latest = models.bearers[models.bearers.length - 1]!;
    assert.notEqual(latest, firstAccess);
    assert.equal((await accountEvents()).at(-1)!.type, 'assistant.account_refreshed');
    const refreshedRead = (await ada.browser.get('/api/autobot/codex')).json.result;
    assert.ok(refreshedRead.account.refreshedAt);
    assert.ok(new Date(refreshedRead.account.accessExpiresAt) > new Date(account.account.accessExpiresAt));
    assert.equal(await mcpPing(provider.url, latest), 200);

    // Disconnect: revoked at the provider (the token no longer works there), ciphertext deleted.
    const gone = await ada.browser.call('DELETE', '/api/autobot/codex', {});
    assert.equal(gone.status, 200, gone.text);
    assert.deepEqual(gone.json.result, { agentId: ada.agentId, disconnected: true, revocation: 'revoked' });
    assert.equal(await mcpPing(provider.url, latest), 401);
    assert.equal(await mcpPing(provider.url, firstAccess), 401);
    assert.equal(
      (await pool().query(`SELECT 1 FROM assistant_account_tokens WHERE agent_id = $1`, [ada.agentId]))
        .rowCount,
      0,
    );
    assert.equal((await accountEvents()).at(-1)!.type, 'assistant.account_disconnected');
    assert.equal(await status(), 'not_connected');
    const after = await ada.browser.get('/api/autobot/codex');
    assert.deepEqual([after.json.result.connected, after.json.result.account], [false, null]);
    const noModels = await ada.browser.get('/api/autobot/codex/models');
    assert.deepEqual([noModels.status, noModels.json.code], [404, 'assistant.account_not_connected']);
  });

  test('given a sign-in the person refuses at the provider, when polled, then access_denied answers assistant.sign_in_denied and the sign-in is over', async () => {
    const s = (await start(ben)).json.result;
    await decide(s.userCode, 'deny');
    clock.advance(1_100);
    const denied = await poll(ben, s.signInId);
    assert.deepEqual([denied.status, denied.json.code], [403, 'assistant.sign_in_denied']);
    clock.advance(1_100);
    assert.equal((await poll(ben, s.signInId)).json.code, 'assistant.sign_in_not_found');
    const types = (await accountEvents())
      .filter((e) => e.stream === `aaccount-${ben.agentId}`)
      .map((e) => e.type);
    assert.deepEqual(types, ['assistant.account_sign_in_started', 'assistant.account_sign_in_ended']);
    assert.equal(
      (await pool().query(`SELECT 1 FROM assistant_account_sign_ins WHERE sign_in_id = $1`, [s.signInId]))
        .rowCount,
      0,
    );
  });

  test('given bad input, then clear codes and nothing written', async () => {
    const before = (await pool().query(`SELECT count(*)::int AS n FROM events`)).rows[0].n as number;
    const s = (await start(ada)).json.result; // one event: the start
    const cases: [Promise<{ status: number; json: Record<string, unknown> }>, number, string][] = [
      [poll(ada, 'not-a-uuid'), 400, 'input.invalid'],
      [poll(ada, s.signInId, { extra: true }), 400, 'input.invalid'],
      [poll(ada, '00000000-0000-4000-8000-000000000000'), 404, 'assistant.sign_in_not_found'],
      // Someone else's sign-in looks like none.
      [poll(ben, s.signInId), 404, 'assistant.sign_in_not_found'],
      [poll(ada, s.signInId, { targetAgentId: ben.agentId }), 404, 'agent.not_found'],
      [ben.browser.call('DELETE', '/api/autobot/codex', {}), 404, 'assistant.account_not_connected'],
      [ada.browser.get(`/api/autobot/codex?targetAgentId=${ben.agentId}`), 404, 'agent.not_found'],
      [ben.browser.get('/api/autobot/codex/models'), 404, 'assistant.account_not_connected'],
      [
        ada.browser.post('/api/autobot/codex/device', {}, { origin: 'https://evil.example' }),
        403,
        'request.cross_origin',
      ],
    ];
    for (const [call, status, code] of cases) {
      const r = await call;
      assert.deepEqual([r.status, r.json.code], [status, code], JSON.stringify(r.json));
    }
    const anonymous = await fetch(`${consumer.url}/api/autobot/codex`);
    assert.equal(anonymous.status, 401);
    const afterCount = (await pool().query(`SELECT count(*)::int AS n FROM events`)).rows[0].n as number;
    assert.equal(afterCount, before + 1);
  });

  test('given a sign-in whose device code ran out, when polled, then assistant.sign_in_expired — from our own clock or from the provider (expired_token)', async () => {
    // Ours: the expiry the provider gave has passed here; the provider is not asked.
    const mine = (await start(ada)).json.result;
    clock.advance(601_000);
    const expired = await poll(ada, mine.signInId);
    assert.deepEqual([expired.status, expired.json.code], [400, 'assistant.sign_in_expired']);
    assert.equal((await poll(ada, mine.signInId)).json.code, 'assistant.sign_in_not_found');

    // The provider's: its clock says the device code is past its life (expired_token).
    const theirs = (await start(ada)).json.result;
    providerClock.advance(601_000);
    clock.advance(1_100);
    const r = await poll(ada, theirs.signInId);
    assert.deepEqual([r.status, r.json.code], [400, 'assistant.sign_in_expired']);
    const ended = (await accountEvents()).filter((e) => e.type === 'assistant.account_sign_in_ended');
    assert.ok(ended.length >= 2);
  });
});
