// A fresh, empty PostgreSQL database per test (or per suite), created on the cluster that `npm test`
// provides (an embedded one, or the server named by DATABASE_URL) and dropped again afterwards.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export interface TestDatabase {
  /** `postgres://` URL of the new database. */
  readonly url: string;
  /** Its name, `trib_test_<random>` (`trib_test_<run>_<random>` within a run of `npm test`). */
  readonly name: string;
  /** Ends every connection to it and drops it; safe to call more than once. */
  drop(): Promise<void>;
}

/** The admin URL of the test cluster: TRIBUTARY_TEST_DATABASE_URL, else DATABASE_URL. */
export function testClusterUrl(): string {
  const url = nonEmpty(process.env.TRIBUTARY_TEST_DATABASE_URL) ?? nonEmpty(process.env.DATABASE_URL);
  if (url === undefined) {
    throw new Error(
      'No test database server: neither TRIBUTARY_TEST_DATABASE_URL nor DATABASE_URL is set; ' +
        'run tests through npm test, which provides a database',
    );
  }
  return url;
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const adminUrl = testClusterUrl();
  // Named for the run (TRIBUTARY_TEST_RUN, set by the global setup), which drops what a test left behind.
  const run = nonEmpty(process.env.TRIBUTARY_TEST_RUN);
  const name = `trib_test_${run ? `${run}_` : ''}${randomBytes(8).toString('hex')}`;
  await withAdmin(adminUrl, (client) => client.query(`create database ${client.escapeIdentifier(name)}`));

  let dropping: Promise<void> | undefined;
  return {
    url: withDatabaseName(adminUrl, name),
    name,
    drop: () => {
      dropping ??= withAdmin(adminUrl, async (client) => {
        await client.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1', [
          name,
        ]);
        await client.query(`drop database if exists ${client.escapeIdentifier(name)} with (force)`);
      });
      return dropping;
    },
  };
}

async function withAdmin<T>(adminUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  try {
    await client.connect();
  } catch (error) {
    throw new Error(
      `Cannot connect to the test database server at ${redact(adminUrl)}: ${(error as Error).message}`,
    );
  }
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

function withDatabaseName(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${encodeURIComponent(name)}`;
  return parsed.toString();
}

function redact(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparseable URL)';
  }
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}
