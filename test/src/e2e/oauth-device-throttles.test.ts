// The device flow's throttles live in Postgres: two processes of one instance share the poll pacing
// (slow_down) and the wrong-user-code counters, and a restart resets neither.
import { startTestInstance, type TestInstance } from '@tributary/test';
import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import * as oidc from 'openid-client';
import { signUp, type Person } from './mcp-helpers.js';
import { DEVICE_GRANT, registeredClient } from './oauth-helpers.js';

describe('OAuth device-flow throttles shared across processes and restarts', () => {
  let a: TestInstance;
  let b: TestInstance;
  let ada: Person;
  let config: oidc.Configuration;

  beforeAll(async () => {
    a = await startTestInstance();
    // A second process of the same instance: same database, same data folder (and so the same key).
    b = await startTestInstance({
      reuse: { databaseUrl: a.databaseUrl, dataDir: a.dataDir, drop: async () => undefined },
    });
    ada = await signUp(a.url, 'ada');
    config = await registeredClient(a.url, { redirect_uris: [], grant_types: [DEVICE_GRANT] });
  });
  afterAll(async () => {
    await b.stop();
    await a.destroy();
  });

  const poll = (url: string, deviceCode: string) =>
    fetch(`${url}/api/mcp/device/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: DEVICE_GRANT,
        device_code: deviceCode,
        client_id: config.clientMetadata().client_id,
      }),
    }).then(async (r) => (await r.json()) as { error: string; error_description: string; interval?: number });
  const enter = (url: string, person: Person, userCode: string) =>
    fetch(`${url}/mcp/authorize?user_code=${userCode}`, { headers: { cookie: person.browser.cookie } }).then(
      (r) => r.status,
    );

  test('given a poll at one process, when the same code is polled at the other at once, then slow_down; after a restart the grown interval is still there', async () => {
    const d = await oidc.initiateDeviceAuthorization(config, { scope: 'svc.profile.read' });
    assert.equal((await poll(a.url, d.device_code)).error, 'authorization_pending');
    const second = await poll(b.url, d.device_code);
    assert.deepEqual([second.error, second.interval], ['slow_down', 10]);
    assert.match(second.error_description, /every 10 seconds/);
    a = await a.restart();
    // Still 10 s, not the advertised 5 s: the restart forgot nothing (and one run grows it once).
    const third = await poll(a.url, d.device_code);
    assert.deepEqual([third.error, third.interval], ['slow_down', 10]);
  });

  test('given wrong user codes spread over two processes and a restart, then the sixth attempt is refused with 429 even for a right code', async () => {
    const ben = await signUp(a.url, 'ben');
    const d = await oidc.initiateDeviceAuthorization(config, { scope: 'svc.profile.read' });
    const wrong = ['BBBB-BBBC', 'BBBB-BBBD', 'BBBB-BBBF', 'BBBB-BBBG', 'BBBB-BBBH'];
    assert.equal(await enter(a.url, ben, wrong[0]!), 404);
    assert.equal(await enter(b.url, ben, wrong[1]!), 404);
    assert.equal(await enter(a.url, ben, wrong[2]!), 404);
    a = await a.restart();
    assert.equal(await enter(b.url, ben, wrong[3]!), 404);
    assert.equal(await enter(a.url, ben, wrong[4]!), 404);
    assert.equal(await enter(a.url, ben, d.user_code), 429);
    assert.equal(await enter(b.url, ben, d.user_code), 429);
    // The refusal says when to come back.
    const refused = await fetch(`${b.url}/mcp/authorize?user_code=${d.user_code}`, {
      headers: { cookie: ben.browser.cookie },
    });
    assert.equal(refused.status, 429);
    const wait = Number(refused.headers.get('retry-after'));
    assert.ok(wait > 0, `Retry-After: ${refused.headers.get('retry-after')}`);
    assert.match(await refused.text(), new RegExp(`Try again in ${wait} seconds`));
    // Another person is not blocked by ben's guesses.
    assert.equal(await enter(b.url, ada, d.user_code), 200);
  });
});
