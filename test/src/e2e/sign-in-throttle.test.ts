// Sign-in throttling counts failures per account as well as per identifier text: an account's email and
// handle do not each get their own allowance of guesses.
import { browser, startTestInstance, type TestInstance } from '@tributary/test';
import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';

const password = 'correct horse battery staple';
const MAX_FAILURES = 4;

describe('sign-in throttling over HTTP', () => {
  let instance: TestInstance;

  /** Every event and every session: a refused sign-in writes neither. */
  const footprint = async () => {
    const { rows } = await instance.instance.pool.query<{ events: string; sessions: string }>(
      `SELECT (SELECT count(*) FROM events) AS events,
              (SELECT count(*) FROM events WHERE type = 'session.started') AS sessions`,
    );
    return rows[0]!;
  };

  beforeAll(async () => {
    instance = await startTestInstance({
      env: {
        INSTANCE_ROLE: 'group',
        INSTANCE_NAME: 'Throttled',
        SIGN_IN_MAX_FAILURES: String(MAX_FAILURES),
      },
    });
    for (const [email, handle] of [
      ['dana@example.org', 'dana'],
      ['eli@example.org', 'eli'],
    ])
      assert.equal(
        (await browser(instance.url).post('/api/auth/signup', { email, handle, password })).status,
        201,
      );
  });
  afterAll(async () => {
    await instance?.destroy();
  });

  test('given wrong passwords alternating between an account’s email and handle, when the limit is reached, then even the right password is 429 auth.throttled with Retry-After and no session is started', async () => {
    const attacker = browser(instance.url);
    for (let i = 0; i < MAX_FAILURES; i++) {
      const identifier = i % 2 === 0 ? 'dana@example.org' : 'DANA';
      const r = await attacker.post('/api/auth/signin', { identifier, password: 'wrong password!!' });
      assert.equal(r.status, 401, `attempt ${i + 1}: ${r.text}`);
      assert.equal(r.json.code, 'auth.invalid_credentials');
    }
    await instance.instance.sequencer.drain();
    const before = await footprint();
    for (const identifier of ['dana', 'Dana@Example.org']) {
      const blocked = await attacker.post('/api/auth/signin', { identifier, password });
      assert.equal(blocked.status, 429, `${identifier}: ${blocked.text}`);
      assert.equal(blocked.json.code, 'auth.throttled');
      assert.match(blocked.headers.get('content-type')!, /application\/problem\+json/);
      assert.ok(Number(blocked.headers.get('retry-after')) > 0, 'Retry-After names the wait');
      assert.deepEqual(blocked.headers.getSetCookie(), [], 'no session cookie');
    }
    await instance.instance.sequencer.drain();
    assert.deepEqual(await footprint(), before, 'nothing was written');

    // Another account is not held back by dana's failures.
    const eli = await browser(instance.url).post('/api/auth/signin', { identifier: 'eli', password });
    assert.equal(eli.status, 200, eli.text);
  });

  test('given wrong passwords for an identifier no account has, then that identifier text is throttled too', async () => {
    const attacker = browser(instance.url);
    for (let i = 0; i < MAX_FAILURES; i++) {
      const r = await attacker.post('/api/auth/signin', {
        identifier: 'nobody',
        password: 'wrong password!!',
      });
      assert.equal(r.json.code, 'auth.invalid_credentials');
    }
    const blocked = await attacker.post('/api/auth/signin', { identifier: 'nobody', password });
    assert.equal(blocked.status, 429);
    assert.equal(blocked.json.code, 'auth.throttled');
    assert.ok(Number(blocked.headers.get('retry-after')) > 0);
  });
});
