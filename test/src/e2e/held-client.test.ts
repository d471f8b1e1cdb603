// A pool client held across other work, whose connection is killed meanwhile: no uncaught 'error', the
// work sees the failure on its next query, and the pool hands out a working connection afterwards.
import assert from 'node:assert/strict';
import { checkOutClient, withPoolClient } from '@tributary/infra';
import pg from 'pg';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../harness/database.js';

describe('a held pool client whose connection dies', () => {
  let db: TestDatabase;
  let pool: pg.Pool;
  let admin: pg.Client;
  beforeAll(async () => {
    db = await createTestDatabase();
    pool = new pg.Pool({ connectionString: db.url, max: 2 });
    admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
  });
  afterAll(async () => {
    await admin.end();
    await pool.end();
    await db.drop();
  });

  const killAndWait = async (client: pg.PoolClient) => {
    const pid = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
    // No listener of the test's own: the client is idle (held, no query of its own running), so the
    // death arrives as an 'error' event, which only the helper's listener keeps from being uncaught.
    const ended = new Promise<void>((resolve) => client.once('end', () => resolve()));
    await admin.query('SELECT pg_terminate_backend($1)', [pid]);
    await ended;
  };

  test('given a client from withPoolClient killed while idle, then the work fails on its next query, nothing is thrown uncaught, and the pool works after', async () => {
    await assert.rejects(
      withPoolClient(pool, async (client) => {
        await killAndWait(client);
        await client.query('SELECT 1');
      }),
    );
    assert.equal((await pool.query<{ one: number }>('SELECT 1 AS one')).rows[0]!.one, 1);
  });

  test('given a client from checkOutClient killed while idle and released, then it is not pooled again', async () => {
    const client = await checkOutClient(pool);
    await killAndWait(client);
    client.release();
    assert.equal(pool.totalCount, 0);
    assert.equal((await pool.query<{ one: number }>('SELECT 1 AS one')).rows[0]!.one, 1);
  });
});
