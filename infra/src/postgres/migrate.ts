// Plain numbered SQL migrations, each applied once in its own transaction, under an advisory lock so
// two processes starting together do not race.
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Pool } from 'pg';
import { checkOutClient } from './held-client.js';

const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));
const LOCK = 732113_0;

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/**
 * The migrations in `dir`, in order. Two files with one number would leave the second unapplied for ever
 * (a version is applied once), so that refuses to load rather than start half-migrated.
 */
export async function loadMigrations(dir = MIGRATIONS_DIR): Promise<Migration[]> {
  const files = (await readdir(dir)).filter((f) => /^\d{4}_[a-z0-9_]+\.sql$/.test(f)).sort();
  const byVersion = new Map<number, string>();
  for (const f of files) {
    const version = Number(f.slice(0, 4));
    const other = byVersion.get(version);
    if (other)
      throw new Error(`migrations ${other} and ${f} share the number ${f.slice(0, 4)}: renumber one`);
    byVersion.set(version, f);
  }
  return Promise.all(
    files.map(async (f) => ({
      version: Number(f.slice(0, 4)),
      name: f.slice(5, -4),
      sql: await readFile(dir + f, 'utf8'),
    })),
  );
}

export async function migrate(
  pool: Pool,
  /** Only these versions (a restore brings the schema to its backup's migrations, no further). */
  only?: ReadonlySet<number>,
  /**
   * The bound of each statement (ms, 0: none) instead of the pool's: a migration may rewrite a large
   * table, and a second process waits here while the first migrates.
   */
  statementTimeoutMs?: number,
): Promise<{ applied: string[] }> {
  const migrations = (await loadMigrations()).filter((m) => !only || only.has(m.version));
  const client = await checkOutClient(pool);
  const applied: string[] = [];
  try {
    if (statementTimeoutMs !== undefined)
      await client.query(`SET statement_timeout = ${Math.trunc(statementTimeoutMs)}`);
    await client.query('SELECT pg_advisory_lock($1)', [LOCK]);
    await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
    const { rows } = await client.query<{ version: number }>('SELECT version FROM schema_migrations');
    const done = new Set(rows.map((r) => r.version));
    for (const m of migrations) {
      if (done.has(m.version)) continue;
      await client.query('BEGIN');
      try {
        await client.query(m.sql);
        await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [
          m.version,
          m.name,
        ]);
        await client.query('COMMIT');
        applied.push(`${m.version}_${m.name}`);
      } catch (e) {
        await client.query('ROLLBACK');
        throw new Error(`migration ${m.version}_${m.name} failed: ${(e as Error).message}`, { cause: e });
      }
    }
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [LOCK]).catch(() => undefined);
    // Back to the connection's own bound before the pool hands it to a request.
    if (statementTimeoutMs !== undefined)
      await client.query('RESET statement_timeout').catch(() => undefined);
    client.release();
  }
  return { applied };
}

/** Whether every migration we ship has been applied (for /readyz). */
export async function migrationsPending(pool: Pool): Promise<number> {
  const migrations = await loadMigrations();
  const { rows } = await pool
    .query<{ version: number }>('SELECT version FROM schema_migrations')
    .catch(() => ({ rows: [] as { version: number }[] }));
  const done = new Set(rows.map((r) => r.version));
  return migrations.filter((m) => !done.has(m.version)).length;
}
