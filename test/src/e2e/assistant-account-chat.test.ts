// A chat turn answered through the connected external-assistant account (docs/assistant.md#how-a-turn-
// uses-the-account), end to end over HTTP. The provider is scripted: a small loopback server plays its
// device flow (RFC 8628 device and token endpoints, each sign-in handed the access token the test names)
// and its models list; its chat API is the harness's OpenAI-compatible server, which REQUIRES Ada's
// access token as the bearer. The instance also has a model of its own (LLM_BASE_URL, another harness
// server) so the test sees which one each turn reaches: the account's when the chosen model is one the
// account offers, the instance's own after disconnecting; a token the provider's API refuses is
// `assistant.account_reconnect_needed` with nothing written; the token is in no answer and no event.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, test } from 'vitest';
import {
  startOpenAiCompatibleServer,
  startTestInstance,
  type OpenAiCompatibleServer,
  type TestInstance,
} from '../harness/index.js';
import { movableClock, signUp, type Loose, type Person } from './mcp-helpers.js';

const ADA_TOKEN = 'acct-access-ada-7f3c9e';
const BEN_TOKEN = 'acct-access-ben-1d2e4a';

/** The provider's device flow and models list; each sign-in gets the next token `issue` names. */
async function startScriptedProvider() {
  const issued = new Set<string>();
  const pending = new Map<string, string>(); // device code -> the access token it is redeemed for
  const refreshed = new Map<string, string>(); // refresh token -> the access token it is refreshed to
  let next = '';
  let n = 0;
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const form = new URLSearchParams(body);
      const send = (status: number, json: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(json));
      };
      if (req.method === 'POST' && req.url === '/device') {
        const deviceCode = `device-${++n}`;
        pending.set(deviceCode, next);
        return send(200, {
          device_code: deviceCode,
          user_code: 'BCDF-GHJK',
          verification_uri: `${url}/verify`,
          expires_in: 600,
          interval: 1,
        });
      }
      if (req.method === 'POST' && req.url === '/token' && form.get('grant_type') === 'refresh_token') {
        const access = refreshed.get(form.get('refresh_token') ?? '');
        if (!access) return send(400, { error: 'invalid_grant' });
        issued.add(access);
        return send(200, { access_token: access, token_type: 'Bearer', expires_in: 3600 });
      }
      if (req.method === 'POST' && req.url === '/token') {
        const access = pending.get(form.get('device_code') ?? '');
        if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:device_code' || !access)
          return send(400, { error: 'invalid_grant' });
        pending.delete(form.get('device_code')!);
        issued.add(access);
        return send(200, {
          access_token: access,
          token_type: 'Bearer',
          refresh_token: `refresh-${access}`,
          expires_in: 3600,
        });
      }
      if (req.method === 'GET' && req.url === '/v1/models') {
        const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
        if (!bearer || !issued.has(bearer)) return send(401, { error: { message: 'invalid token' } });
        return send(200, { object: 'list', data: [{ id: 'acct-large', object: 'model', owned_by: 'p' }] });
      }
      res.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    /** The access token the next sign-in is given. */
    issue: (token: string) => (next = token),
    /** A refresh of `access`'s grant gives `to`. */
    refreshesTo: (access: string, to: string) => refreshed.set(`refresh-${access}`, to),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let provider: Awaited<ReturnType<typeof startScriptedProvider>>;
let accountApi: OpenAiCompatibleServer;
let ownModel: OpenAiCompatibleServer;
let consumer: TestInstance;
let ada: Person;
let ben: Person;
const clock = movableClock();
const logLines: string[] = [];

beforeAll(async () => {
  provider = await startScriptedProvider();
  accountApi = await startOpenAiCompatibleServer({ models: ['acct-large'], apiKey: ADA_TOKEN });
  ownModel = await startOpenAiCompatibleServer({ models: ['own-model'] });
  consumer = await startTestInstance({
    clock,
    logLines,
    env: {
      LLM_BASE_URL: ownModel.url,
      LLM_MODEL: 'own-model',
      LLM_TIMEOUT_MS: '5000',
      ASSISTANT_PROVIDER_NAME: 'scripted',
      ASSISTANT_PROVIDER_DEVICE_URL: `${provider.url}/device`,
      ASSISTANT_PROVIDER_TOKEN_URL: `${provider.url}/token`,
      ASSISTANT_PROVIDER_MODELS_URL: `${provider.url}/v1/models`,
      ASSISTANT_PROVIDER_API_URL: accountApi.url,
      ASSISTANT_PROVIDER_CLIENT_ID: 'tributary-test',
    },
  });
  ada = await signUp(consumer.url, 'ada');
  ben = await signUp(consumer.url, 'ben');
});

afterAll(async () => {
  await consumer?.destroy();
  await Promise.all([provider?.close(), accountApi?.close(), ownModel?.close()]);
});

/** Signs the person in at the scripted provider, which hands them `token`. */
async function connect(person: Person, token: string) {
  provider.issue(token);
  const started = await person.browser.post('/api/autobot/codex/device', {});
  assert.equal(started.status, 201, started.text);
  clock.advance(1_100); // past the interval, so the poll asks the provider
  const done = await person.browser.post('/api/autobot/codex/device/poll', {
    signInId: started.json.result.signInId,
  });
  assert.equal(done.json.result?.status, 'connected', done.text);
}

const turnOf = async (person: Person) =>
  (await person.browser.get('/api/autobot/status')).json.result.turn as Loose;

/** Events on the log that are not provenance entries (reads record those). */
async function commandEvents(): Promise<number> {
  const { rows } = await consumer.instance.pool.query(
    `SELECT count(*)::int AS n FROM events WHERE type <> 'provenance.recorded'`,
  );
  return rows[0].n as number;
}

describe('a chat turn through the connected account', () => {
  test('given the account’s model is chosen, a turn reaches the provider’s API with the account’s bearer and that model, its plan runs once confirmed, and the token is nowhere; after disconnecting the instance’s own model answers', async () => {
    assert.deepEqual(await turnOf(ada), { route: 'configured', model: 'own-model' });
    await connect(ada, ADA_TOKEN);
    // Connected but the instance's own model chosen (none chosen): still the instance's model.
    assert.deepEqual(await turnOf(ada), { route: 'configured', model: 'own-model' });
    const chosen = await ada.browser.post('/api/autobot/settings', { model: 'acct-large' });
    assert.equal(chosen.status, 200, chosen.text);
    assert.deepEqual(await turnOf(ada), { route: 'account', model: 'acct-large' });

    accountApi.reply({
      text: 'I will create it.',
      toolCalls: [{ name: 'svc__agent__create_persona', arguments: { name: 'Rook' } }],
    });
    const r = await ada.browser.post('/api/autobot/chat', { message: 'create a persona called Rook' });
    assert.equal(r.status, 200, r.text);
    // The turn asks again after the proposed call (the loop's next iteration): every call went there.
    assert.ok(accountApi.requests.length >= 1);
    assert.equal(ownModel.requests.length, 0, 'the instance’s own model was not asked');
    for (const sent of accountApi.requests) {
      assert.equal(sent.headers.authorization, `Bearer ${ADA_TOKEN}`);
      assert.equal(sent.body.model, 'acct-large');
    }
    const out = r.json.result;
    assert.equal(out.message.model, 'acct-large');
    assert.deepEqual(
      out.plan.steps.map((s: Loose) => [s.tool, s.args]),
      [['svc.agent.create_persona', { name: 'Rook', targetAgentId: ada.agentId }]],
    );
    const confirmed = await ada.browser.post('/api/autobot/confirm', { planHash: out.plan.hash });
    assert.equal(confirmed.status, 200, confirmed.text);
    const personas = await ada.browser.post('/api/ops/svc.agent.list_personas', {});
    assert.ok(
      personas.json.result.personas.some((p: Loose) => p.name === 'Rook'),
      'Rook, once confirmed',
    );

    // The token: not in the answers, not in any event.
    assert.ok(!r.text.includes(ADA_TOKEN) && !confirmed.text.includes(ADA_TOKEN));
    const { rows } = await consumer.instance.pool.query<{ envelope: string }>(`SELECT envelope FROM events`);
    assert.ok(!rows.some((e) => e.envelope.includes(ADA_TOKEN)), 'the access token is in the log');
    const status = await ada.browser.get('/api/autobot/status');
    assert.ok(!status.text.includes(ADA_TOKEN));
    assert.ok(logLines.length > 0, 'the instance logged');
    assert.ok(!logLines.some((l) => l.includes(ADA_TOKEN)), 'the access token is in a log line');

    // The provider forbidding the token (403) also asks for a new sign-in; a provider error (500) is the
    // usual model_unavailable. Nothing written either way.
    const before = await commandEvents();
    accountApi.reply({ status: 403, body: JSON.stringify({ error: { message: 'forbidden' } }) });
    const forbidden = await ada.browser.post('/api/autobot/chat', { message: 'hello' });
    assert.deepEqual([forbidden.status, forbidden.json.code], [409, 'assistant.account_reconnect_needed']);
    accountApi.reply({ status: 500 });
    const down = await ada.browser.post('/api/autobot/chat', { message: 'hello' });
    assert.deepEqual([down.status, down.json.code], [503, 'assistant.model_unavailable']);
    assert.equal(await commandEvents(), before, 'nothing written');
    const turnCalls = accountApi.requests.length;

    // Disconnected: the next turn goes to the instance's own model (with the chosen name, as before).
    const gone = await ada.browser.call('DELETE', '/api/autobot/codex', {});
    assert.equal(gone.status, 200, gone.text);
    assert.equal((await turnOf(ada)).route, 'configured');
    ownModel.reply({ text: 'Hello from the instance.' });
    const after = await ada.browser.post('/api/autobot/chat', { message: 'hello again' });
    assert.equal(after.status, 200, after.text);
    assert.equal(accountApi.requests.length, turnCalls, 'the provider’s API was not asked again');
    assert.ok(ownModel.requests.length >= 1);
    assert.ok(ownModel.requests.every((q) => !(q.headers.authorization ?? '').includes(ADA_TOKEN)));
  });

  test('given a token the provider’s API refuses (401), a turn answers assistant.account_reconnect_needed and writes nothing', async () => {
    await connect(ben, BEN_TOKEN);
    const chosen = await ben.browser.post('/api/autobot/settings', { model: 'acct-large' });
    assert.equal(chosen.status, 200, chosen.text);
    assert.equal((await turnOf(ben)).route, 'account');
    const asked = accountApi.requests.length;
    const before = await commandEvents();
    const own = ownModel.requests.length;
    const r = await ben.browser.post('/api/autobot/chat', { message: 'create a persona called Moth' });
    assert.deepEqual([r.status, r.json.code], [409, 'assistant.account_reconnect_needed'], r.text);
    assert.ok(!r.text.includes(BEN_TOKEN));
    assert.ok(!logLines.some((l) => l.includes(BEN_TOKEN)), 'the refused token is in a log line');
    assert.equal(accountApi.requests.length, asked, 'no chat request the provider’s API accepted');
    assert.deepEqual(accountApi.refused, [`Bearer ${BEN_TOKEN}`], 'asked with Ben’s token, and refused');
    assert.equal(await commandEvents(), before, 'nothing written');
    assert.equal(ownModel.requests.length, own, 'no silent fallback to the instance’s model');
  });

  test('given an instance with no model of its own (built-in planner), a connected account answers its turns with the first model it lists, none chosen, its token refreshed first', async () => {
    const bare = await startTestInstance({
      clock,
      env: {
        ASSISTANT_PROVIDER_DEVICE_URL: `${provider.url}/device`,
        ASSISTANT_PROVIDER_TOKEN_URL: `${provider.url}/token`,
        ASSISTANT_PROVIDER_MODELS_URL: `${provider.url}/v1/models`,
        ASSISTANT_PROVIDER_API_URL: accountApi.url,
        ASSISTANT_PROVIDER_CLIENT_ID: 'tributary-test',
      },
    });
    try {
      const cy = await signUp(bare.url, 'cyd');
      assert.deepEqual(await turnOf(cy), { route: 'builtin', model: 'builtin-planner' });
      // Signed in with a token the provider's API does not take; an hour on it is about to expire, and
      // the turn refreshes it first: to the one the API takes.
      await connect(cy, 'acct-access-stale-cy');
      assert.deepEqual(await turnOf(cy), { route: 'account', model: 'acct-large' });
      provider.refreshesTo('acct-access-stale-cy', ADA_TOKEN);
      clock.advance(3_600_000);
      const asked = accountApi.requests.length;
      accountApi.reply({ text: 'Hello from the provider.' });
      const r = await cy.browser.post('/api/autobot/chat', { message: 'hello' });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.json.result.message.model, 'acct-large');
      assert.match(r.json.result.message.text, /Hello from the provider/);
      const sent = accountApi.requests[asked]!;
      assert.deepEqual([sent.headers.authorization, sent.body.model], [`Bearer ${ADA_TOKEN}`, 'acct-large']);
      const { rows } = await bare.instance.pool.query<{ type: string }>(
        `SELECT type FROM events WHERE stream LIKE 'aaccount-%' ORDER BY position`,
      );
      assert.deepEqual(
        rows.map((e) => e.type),
        ['assistant.account_sign_in_started', 'assistant.account_connected', 'assistant.account_refreshed'],
      );
      // Streamed too: the provider's words arrive as delta events, then the message.
      accountApi.reply({ text: 'Streamed from the provider.' });
      const streamed = await fetch(`${bare.url}/api/autobot/chat`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'text/event-stream',
          cookie: cy.browser.cookie,
        },
        body: JSON.stringify({ message: 'and streamed?', stream: true }),
      });
      const text = await streamed.text();
      assert.equal(streamed.status, 200, text);
      assert.match(text, /^event: delta$/m);
      assert.match(text, /Streamed from the provider/);
      assert.ok(accountApi.requests.at(-1)!.body.stream, 'asked for a stream');
      assert.ok(!text.includes(ADA_TOKEN));
    } finally {
      await bare.destroy();
    }
  });
});
