// A request never waits longer than DATABASE_STATEMENT_TIMEOUT_MS on the database: with a lock held on
// the log (an administrator's LOCK TABLE, a long migration elsewhere), a write answers 503
// service.unavailable with Retry-After once its statement reaches the bound, writes nothing, and works
// again when the lock goes.
import { browser, startTestInstance, type TestInstance } from '@tributary/test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { afterAll, beforeAll, describe, test } from 'vitest';

describe('a request while a table lock is held', () => {
  let instance: TestInstance;
  let locker: pg.Client;

  beforeAll(async () => {
    instance = await startTestInstance({ env: { DATABASE_STATEMENT_TIMEOUT_MS: '1000' } });
    locker = new pg.Client({ connectionString: instance.databaseUrl });
    await locker.connect();
  });
  afterAll(async () => {
    await locker?.end();
    await instance?.destroy();
  });

  const eventCount = async (client: pg.ClientBase | pg.Pool) =>
    Number((await client.query<{ n: string }>('SELECT count(*) AS n FROM events')).rows[0]!.n);

  test('given the log locked by another session, when a signed-in person writes, then 503 service.unavailable with Retry-After within the statement bound, nothing written; after the lock, the write succeeds', async () => {
    const ada = browser(instance.url);
    const signup = await ada.post('/api/auth/signup', { handle: 'ada', password: 'correct horse battery' });
    assert.equal(signup.status, 201, signup.text);

    await locker.query('BEGIN');
    await locker.query('LOCK TABLE events IN ACCESS EXCLUSIVE MODE');
    const head = await eventCount(locker);
    // Without a bound the write would wait for as long as the lock is held: let it go after 30 s at most.
    const release = setTimeout(() => void locker.query('ROLLBACK'), 30_000);
    let waited = 0;
    let during: Awaited<ReturnType<typeof ada.post>> | undefined;
    try {
      const started = Date.now();
      during = await ada.post('/api/ops/svc.agent.create_persona', { name: 'During the lock' });
      waited = Date.now() - started;
      assert.equal(await eventCount(locker), head, 'nothing was written');
    } finally {
      clearTimeout(release);
      await locker.query('ROLLBACK');
    }
    assert.ok(during);
    assert.equal(during.status, 503, during.text);
    assert.match(during.headers.get('content-type') ?? '', /^application\/problem\+json/);
    assert.equal(during.json.code, 'service.unavailable');
    assert.equal(during.headers.get('retry-after'), '5');
    // The bound is 1 s; the rest is room for a loaded machine, well short of the lock's 30 s.
    assert.ok(waited < 20_000, `answered after ${waited} ms`);

    const after = await ada.post('/api/ops/svc.agent.create_persona', { name: 'After the lock' });
    assert.equal(after.status, 201, after.text);
    assert.equal(after.json.result.name, 'After the lock');
    assert.ok((await eventCount(instance.instance.pool)) > head);
  });
});
