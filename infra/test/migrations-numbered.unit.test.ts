// The shipped migrations: each number once, since a version is applied once and a second file with the
// same number would be skipped on every database.
import { it } from 'vitest';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadMigrations } from '../src/postgres/migrate.js';

it('given the shipped migrations, when loaded, then each number appears once and in order', async () => {
  const migrations = await loadMigrations();
  assert.ok(migrations.length > 0);
  const versions = migrations.map((m) => m.version);
  assert.deepEqual(
    versions,
    [...new Set(versions)].sort((a, b) => a - b),
  );
});

it('given two migration files with one number, when loaded, then loading refuses', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'tributary-migrations-'));
  try {
    await writeFile(join(dir, '0001_first.sql'), 'SELECT 1;');
    await writeFile(join(dir, '0002_second.sql'), 'SELECT 2;');
    await writeFile(join(dir, '0002_clash.sql'), 'SELECT 3;');
    await assert.rejects(loadMigrations(dir + '/'), /share the number 0002/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
