import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import pg from 'pg';
import { databaseUrlWithName, startEmbeddedPostgres } from '../src/postgres/embedded-postgres.js';

async function query<R extends pg.QueryResultRow>(url: string, sql: string): Promise<R[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<R>(sql)).rows;
  } finally {
    await client.end();
  }
}

describe('embedded PostgreSQL', { timeout: 120_000 }, () => {
  let scratch: string;
  let dataDir: string;
  let firstPassword: string;

  beforeAll(async () => {
    // The temporary folder itself is the data folder: as root, PostgreSQL runs as the user `postgres`, which
    // can enter the data folder (made o+x on start) but not a 0700 mkdtemp folder above it.
    scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'tributary-embedded-pg-test-'));
    dataDir = scratch;
  });

  afterAll(async () => {
    await fs.rm(scratch, { recursive: true, force: true });
  });

  it('given an empty data folder, when started, then the tributary database answers queries', async () => {
    const postgres = await startEmbeddedPostgres({ dataDir });
    try {
      assert.match(postgres.url, /^postgres:\/\/postgres:[^@]+@127\.0\.0\.1:\d+\/tributary$/);
      assert.deepEqual(await query(postgres.url, 'select 1 as one'), [{ one: 1 }]);
      await query(postgres.url, "create table kept (note text); insert into kept values ('first run')");
      firstPassword = new URL(postgres.url).password;
    } finally {
      await postgres.stop();
    }
    const passwordFile = path.join(dataDir, 'postgres', '.tributary-password');
    assert.equal((await fs.stat(passwordFile)).mode & 0o777, 0o600);
    assert.equal((await fs.readFile(passwordFile, 'utf8')).trim(), firstPassword);
  });

  it('given a stopped cluster, when started again on the same folder, then the password and data are kept', async () => {
    const postgres = await startEmbeddedPostgres({ dataDir });
    try {
      assert.equal(new URL(postgres.url).password, firstPassword);
      assert.deepEqual(await query(postgres.url, 'select note from kept'), [{ note: 'first run' }]);
    } finally {
      await postgres.stop();
    }
  });

  it('given a running cluster, when a second server is started on its folder, then it is refused clearly', async () => {
    const postgres = await startEmbeddedPostgres({ dataDir });
    try {
      await assert.rejects(
        startEmbeddedPostgres({ dataDir }),
        /already in use by a running PostgreSQL server/,
      );
      assert.deepEqual(await query(postgres.adminUrl, 'select 1 as one'), [{ one: 1 }]);
    } finally {
      await postgres.stop();
    }
  });

  it('given a postmaster.pid left by a dead server, when started, then the stale file is ignored', async () => {
    const deadPid = spawnSync('true').pid;
    assert.ok(deadPid !== undefined);
    const pidFile = path.join(dataDir, 'postgres', 'postmaster.pid');
    await fs.writeFile(pidFile, `${deadPid}\n${path.join(dataDir, 'postgres')}\n`);
    const lines: string[] = [];
    const postgres = await startEmbeddedPostgres({ dataDir, log: (line) => lines.push(line) });
    try {
      assert.ok(lines.some((line) => line.includes('removed stale postmaster.pid')));
      assert.deepEqual(await query(postgres.url, 'select count(*)::int as n from kept'), [{ n: 1 }]);
    } finally {
      await postgres.stop();
    }
  });

  it('given a data folder that is a regular file, when started, then it fails with a clear error', async () => {
    const file = path.join(scratch, 'not-a-folder');
    await fs.writeFile(file, 'just a file');
    await assert.rejects(startEmbeddedPostgres({ dataDir: file }), {
      message: `PostgreSQL data folder ${file} is not a folder (a file is in the way)`,
    });
  });

  it('given a database URL, when renamed, then only the database part changes', () => {
    assert.equal(
      databaseUrlWithName('postgres://u:p%40ss@127.0.0.1:5433/tributary?sslmode=disable', 'other'),
      'postgres://u:p%40ss@127.0.0.1:5433/other?sslmode=disable',
    );
  });
});
