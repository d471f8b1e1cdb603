import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import pg from 'pg';
import { createTestDatabase, testClusterUrl } from './database.js';

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function databaseExists(name: string): Promise<boolean> {
  return withClient(testClusterUrl(), async (client) => {
    const result = await client.query('select 1 from pg_database where datname = $1', [name]);
    return result.rowCount === 1;
  });
}

describe('test databases', () => {
  it('given the test cluster, when a test database is created, then it is empty and usable', async () => {
    const database = await createTestDatabase();
    try {
      assert.match(database.name, /^trib_test_([0-9a-f]{8}_)?[0-9a-f]{16}$/);
      await withClient(database.url, async (client) => {
        const current = await client.query<{ name: string }>('select current_database() as name');
        assert.equal(current.rows[0]?.name, database.name);
        const tables = await client.query("select 1 from pg_tables where schemaname = 'public'");
        assert.equal(tables.rowCount, 0);
        await client.query('create table note (body text)');
        await client.query("insert into note values ('hello')");
        assert.deepEqual((await client.query('select body from note')).rows, [{ body: 'hello' }]);
      });
    } finally {
      await database.drop();
    }
  });

  it('given two test databases, when one gets a table, then the other does not see it', async () => {
    const [first, second] = await Promise.all([createTestDatabase(), createTestDatabase()]);
    try {
      assert.notEqual(first.name, second.name);
      await withClient(first.url, (client) => client.query('create table only_here (id int)'));
      const seen = await withClient(second.url, (client) =>
        client.query("select 1 from pg_tables where tablename = 'only_here'"),
      );
      assert.equal(seen.rowCount, 0);
    } finally {
      await Promise.all([first.drop(), second.drop()]);
    }
  });

  it('given a test database with an open connection, when dropped, then it is gone from the cluster', async () => {
    const database = await createTestDatabase();
    const lingering = new pg.Client({ connectionString: database.url });
    lingering.on('error', () => undefined); // its connection is terminated by drop()
    await lingering.connect();
    assert.equal(await databaseExists(database.name), true);

    await database.drop();
    await database.drop(); // a second drop is harmless

    assert.equal(await databaseExists(database.name), false);
    await lingering.end().catch(() => undefined);
  });

  it('given no database in the environment, when a test database is requested, then the error says how to run tests', async () => {
    const saved = { test: process.env.TRIBUTARY_TEST_DATABASE_URL, main: process.env.DATABASE_URL };
    delete process.env.TRIBUTARY_TEST_DATABASE_URL;
    delete process.env.DATABASE_URL;
    try {
      await assert.rejects(createTestDatabase(), /run tests through npm test, which provides a database/);
    } finally {
      if (saved.test !== undefined) process.env.TRIBUTARY_TEST_DATABASE_URL = saved.test;
      if (saved.main !== undefined) process.env.DATABASE_URL = saved.main;
    }
  });
});
