// The device flow (RFC 8628), driven by openid-client: a headless client gets a user code, a signed-in
// person approves it at /mcp/authorize, the client polls (through a slow_down) for its token; a poller
// that restarts from the advertised interval still gets it. Plus denied, expired and already-redeemed
// codes, and brute-forced user codes.
import { startTestInstance, type TestInstance } from '@tributary/test';
import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import * as oidc from 'openid-client';
import { mcpClient, movableClock, signUp, structured, type Person } from './mcp-helpers.js';
import { DEVICE_GRANT, formFields, oauthCode, registeredClient } from './oauth-helpers.js';

describe('OAuth device flow', () => {
  let instance: TestInstance;
  let url: string;
  let ada: Person;
  let config: oidc.Configuration;
  const clock = movableClock();

  beforeAll(async () => {
    instance = await startTestInstance({ clock, env: { OAUTH_DEVICE_INTERVAL_SECONDS: '1' } });
    url = instance.url;
    ada = await signUp(url, 'ada');
    config = await registeredClient(url, { redirect_uris: [], grant_types: [DEVICE_GRANT, 'refresh_token'] });
  });
  afterAll(async () => {
    await instance.stop();
  });

  const start = (scope = 'svc.profile.read') => oidc.initiateDeviceAuthorization(config, { scope });
  const poll = (deviceCode: string, path = '/api/mcp/device/token') =>
    fetch(url + path, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: DEVICE_GRANT,
        device_code: deviceCode,
        client_id: config.clientMetadata().client_id,
      }),
    }).then(async (r) => ({
      status: r.status,
      json: (await r.json()) as Record<string, string>,
      cache: r.headers.get('cache-control'),
    }));
  const page = (path: string, person: Person) =>
    fetch(url + path, { headers: { cookie: person.browser.cookie } }).then(async (r) => ({
      status: r.status,
      html: await r.text(),
    }));
  async function decide(person: Person, userCode: string, decision: 'approve' | 'deny') {
    const p = await page(`/mcp/authorize?user_code=${encodeURIComponent(userCode)}`, person);
    assert.equal(p.status, 200, p.html);
    const r = await fetch(`${url}/api/mcp/device/approve`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        cookie: person.browser.cookie,
        origin: url,
      },
      body: new URLSearchParams({ ...formFields(p.html, '/api/mcp/device/approve'), decision }),
    });
    return { status: r.status, html: await r.text() };
  }
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  test('given a device client, when openid-client polls through a slow_down while the person approves, then it gets a token that calls a tool', async () => {
    const d = await start();
    assert.match(d.user_code, /^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
    assert.equal(d.verification_uri, `${url}/mcp/authorize`);
    assert.equal(d.verification_uri_complete, `${url}/mcp/authorize?user_code=${d.user_code}`);
    assert.equal(d.interval, 1);
    const polling = oidc.pollDeviceAuthorizationGrant(config, d);
    // A poll of our own just before openid-client's first makes that one too fast: slow_down.
    await sleep(700);
    assert.equal((await poll(d.device_code)).json.error, 'authorization_pending');
    await sleep(400);
    const approved = await decide(ada, d.user_code.toLowerCase().replace('-', ' '), 'approve');
    assert.equal(approved.status, 200, approved.html);
    const tokens = await polling;
    assert.ok(tokens.refresh_token);
    const client = await mcpClient(url, { bearer: tokens.access_token });
    const profile = structured(await client.callTool({ name: 'svc.profile.read', arguments: {} }));
    assert.ok(profile);
    await client.close();
    // Redeemed once: polling again (after the grown interval) is refused.
    clock.advance(7_000);
    try {
      assert.equal((await poll(d.device_code)).json.error, 'invalid_grant');
    } finally {
      clock.advance(-7_000);
    }
  });

  test('given a pending code, when polled faster than the interval, then slow_down naming the interval, grown by 5 s once per run of too-fast polls', async () => {
    const d = await start();
    const first = await poll(d.device_code, '/api/mcp/oauth/token');
    assert.deepEqual(
      [first.status, first.json.error, first.cache],
      [400, 'authorization_pending', 'no-store'],
    );
    const slowed = await poll(d.device_code);
    assert.deepEqual([slowed.status, slowed.json.error, slowed.json.interval], [400, 'slow_down', 6]);
    await sleep(1100); // the interval is now 6 s: 1 s later is still too fast, but the same run
    const again = await poll(d.device_code);
    assert.deepEqual([again.json.error, again.json.interval], ['slow_down', 6]);
    clock.advance(6_000);
    try {
      // Polite at last: the interval shrinks back to the advertised 1 s.
      assert.equal((await poll(d.device_code)).json.error, 'authorization_pending');
      clock.advance(1_000);
      assert.equal((await poll(d.device_code)).json.error, 'authorization_pending');
    } finally {
      clock.advance(-7_000);
    }
  });

  // The poller RFC 8628 §3.5 describes, on the instance's clock: it waits its interval before each
  // poll and adds 5 s per slow_down. `useInterval` makes it take slow_down's `interval` member instead.
  async function pollLikeAClient(deviceCode: string, interval: number, o: { useInterval?: boolean } = {}) {
    const answers: string[] = [];
    let waited = 0;
    try {
      for (let i = 0; i < 12; i++) {
        clock.advance(interval * 1000);
        waited += interval * 1000;
        const r = await poll(deviceCode);
        if (r.status === 200) return { answers, token: r.json };
        answers.push(r.json.error!);
        if (r.json.error === 'slow_down') interval = o.useInterval ? Number(r.json.interval) : interval + 5;
      }
      return { answers, token: undefined };
    } finally {
      clock.advance(-waited);
    }
  }

  test('given a poller slowed down and restarted from the advertised interval, when the code is approved, then it gets its token after one slow_down, not slow_down for ever', async () => {
    for (const useInterval of [false, true]) {
      const d = await start();
      // The first run of the poller polls too fast and is slowed down; then it restarts.
      assert.equal((await poll(d.device_code)).json.error, 'authorization_pending');
      assert.equal((await poll(d.device_code)).json.error, 'slow_down');
      assert.equal((await decide(ada, d.user_code, 'approve')).status, 200);
      const restarted = await pollLikeAClient(d.device_code, d.interval!, { useInterval });
      assert.deepEqual(restarted.answers, ['slow_down'], `useInterval: ${String(useInterval)}`);
      assert.ok(restarted.token?.access_token);
    }
  });

  test('given a device request with no scope, when approved and redeemed, then the grant holds the default the 401 challenge names', async () => {
    const d = await oidc.initiateDeviceAuthorization(config, {});
    const p = await page(`/mcp/authorize?user_code=${encodeURIComponent(d.user_code)}`, ada);
    assert.equal(p.status, 200, p.html);
    assert.match(p.html, /svc\.agent\.read/);
    assert.equal((await decide(ada, d.user_code, 'approve')).status, 200);
    clock.advance(10_000);
    try {
      const r = await poll(d.device_code);
      assert.equal(r.status, 200, JSON.stringify(r.json));
      assert.equal(r.json.scope, 'svc.agent.read svc.instance.read svc.profile.read');
    } finally {
      clock.advance(-10_000);
    }
  });

  test('given a denied code, when polled, then access_denied', async () => {
    const d = await start();
    assert.equal((await decide(ada, d.user_code, 'deny')).status, 200);
    assert.equal((await poll(d.device_code)).json.error, 'access_denied');
  });

  test('given an expired code, when polled or entered, then expired_token and the page refuses it', async () => {
    const d = await start();
    clock.advance(601_000);
    try {
      assert.equal((await poll(d.device_code)).json.error, 'expired_token');
      assert.equal((await page(`/mcp/authorize?user_code=${d.user_code}`, ada)).status, 404);
    } finally {
      clock.advance(-601_000);
    }
  });

  test('given wrong user codes, when a person keeps guessing, then after five the page refuses even a right code', async () => {
    const ben = await signUp(url, 'ben');
    const d = await start();
    for (let i = 0; i < 5; i++)
      assert.equal((await page(`/mcp/authorize?user_code=BBBB-BBB${'CDFGH'[i]}`, ben)).status, 404);
    assert.equal((await page(`/mcp/authorize?user_code=${d.user_code}`, ben)).status, 429);
    assert.equal((await poll(d.device_code)).json.error, 'authorization_pending');
  });

  test('given a client without the device grant or an unknown client, when it asks for a device code, then unauthorized_client or invalid_client', async () => {
    const codeOnly = await registeredClient(url);
    await assert.rejects(
      oidc.initiateDeviceAuthorization(codeOnly, { scope: 'svc.profile.read' }),
      (e) => oauthCode(e) === 'unauthorized_client',
    );
    const r = await fetch(`${url}/api/mcp/device/code`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: 'nobody' }),
    });
    assert.equal(r.status, 401);
    assert.equal(((await r.json()) as { error: string }).error, 'invalid_client');
  });

  test('given the device page without a session, then it shows the sign-in form; without CSRF the approval is refused', async () => {
    const anon = await fetch(`${url}/mcp/authorize`);
    assert.match(await anon.text(), /action="\/mcp\/oauth\/signin"/);
    const d = await start();
    const r = await fetch(`${url}/api/mcp/device/approve`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        cookie: ada.browser.cookie,
        origin: url,
      },
      body: new URLSearchParams({ user_code: d.user_code, decision: 'approve' }),
    });
    assert.equal(r.status, 403);
    assert.equal((await poll(d.device_code)).json.error, 'authorization_pending');
  });
});
