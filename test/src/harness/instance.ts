// Starts a real instance for a test: its own database, its own data folder, an ephemeral port.
import { composeInstance, loadConfig, serve, type RunningServer } from '@tributary/infra';
import type { Clock } from '@tributary/services';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { createTestDatabase } from './database.js';

export interface TestInstance extends RunningServer {
  /** Stops the server but keeps the database and data folder, so a restart finds everything. */
  restart(): Promise<TestInstance>;
  /** After `stop()`: starts the instance again on the same database, data folder and port. */
  startAgain(): Promise<TestInstance>;
  /** Stops everything and removes the database and data folder. */
  destroy(): Promise<void>;
  databaseUrl: string;
  dataDir: string;
}

export interface TestInstanceOptions {
  env?: Record<string, string>;
  clock?: Clock;
  /** Reuse a database and data folder (a restart, or a second process on the same instance). */
  reuse?: { databaseUrl: string; dataDir: string; drop: () => Promise<void> };
  /**
   * Every log line the instance writes (level trace, no redaction of its own) is pushed here, so a test
   * can check that a secret is never logged.
   */
  logLines?: string[];
}

export async function startTestInstance(options: TestInstanceOptions = {}): Promise<TestInstance> {
  const db: { databaseUrl: string; drop: () => Promise<void> } =
    options.reuse ?? (await createTestDatabase().then((d) => ({ databaseUrl: d.url, drop: d.drop })));
  const dataDir = options.reuse?.dataDir || (await mkdtemp(join(tmpdir(), 'trib-instance-')));
  // BASE_URL must be the address clients really use (Host/Origin checks, token audience, discovery), so
  // the port is known before the instance is composed: a socket bound to port 0 now, which the server
  // takes over, so no parallel test can take the port in between. Restarts keep the port.
  const held =
    options.env?.PORT === undefined ? await listenOnFreePort(options.env?.HOST ?? '127.0.0.1') : undefined;
  const port = options.env?.PORT ?? String((held!.address() as net.AddressInfo).port);
  try {
    return await startOn(
      options,
      db,
      dataDir,
      { PORT: port, BASE_URL: `http://127.0.0.1:${port}`, ...options.env },
      held,
    );
  } catch (e) {
    held?.close();
    if (!options.reuse) {
      await db.drop().catch(() => undefined);
      await rm(dataDir, { recursive: true, force: true });
    }
    throw e;
  }
}

async function startOn(
  options: TestInstanceOptions,
  db: { databaseUrl: string; drop: () => Promise<void> },
  dataDir: string,
  env: Record<string, string>,
  held: net.Server | undefined,
): Promise<TestInstance> {
  const config = loadConfig({
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    DATABASE_URL: db.databaseUrl,
    DATABASE_POOL_SIZE: '10',
    TRIBUTARY_DATA_DIR: dataDir,
    BCRYPT_ROUNDS: '4',
    LOG_LEVEL: 'silent',
    // Background sync would send events between the instances a test peers by hand; the sync tests
    // turn it on.
    FEDERATION_SYNC: 'off',
    // The suite's clients (fetch, the MCP SDK) pool connections across tests; on a loaded host a client
    // can pick one just as the server closes it as idle (ECONNRESET). A long idle time makes that rare;
    // the hostile-clients tests set their own.
    HTTP_KEEP_ALIVE_TIMEOUT_MS: '60000',
    ...env,
  });
  const lines = options.logLines;
  const logger = lines
    ? pino({ level: 'trace' }, { write: (line: string) => void lines.push(line) })
    : pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });
  const instance = await composeInstance(config, { logger, ...(options.clock && { clock: options.clock }) });
  let running: RunningServer;
  try {
    running = await serve(instance, held && { listening: held });
  } catch (e) {
    // A start that fails (e.g. Redis unreachable) must not leave the pool and loops running.
    await instance.close().catch(() => undefined);
    throw e;
  }
  const reuse = { databaseUrl: db.databaseUrl, dataDir, drop: db.drop };
  const self: TestInstance = {
    ...running,
    databaseUrl: db.databaseUrl,
    dataDir,
    async restart() {
      await running.stop();
      return startTestInstance({ ...options, env, reuse });
    },
    startAgain() {
      return startTestInstance({ ...options, env, reuse });
    },
    async destroy() {
      await running.stop().catch(() => undefined);
      await db.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
  return self;
}

/** A fetch-based client that keeps cookies, like a browser would. */
export function browser(baseUrl: string) {
  let cookie = '';
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(baseUrl + path, {
      method,
      headers: {
        ...(body !== undefined && { 'content-type': 'application/json' }),
        ...(cookie && { cookie }),
        ...headers,
      },
      ...(body !== undefined && { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    const set = res.headers.getSetCookie();
    for (const c of set) {
      const [pair] = c.split(';');
      if (/expires=Thu, 01 Jan 1970/i.test(c)) cookie = '';
      else if (pair) cookie = pair;
    }
    const text = await res.text();
    let json: unknown = undefined;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      /* not JSON */
    }
    // Tests read arbitrary response shapes; `any` keeps assertions terse.
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    return { status: res.status, headers: res.headers, json: json as Record<string, any>, text };
  };
  return {
    get: (path: string, headers?: Record<string, string>) => call('GET', path, undefined, headers),
    post: (path: string, body?: unknown, headers?: Record<string, string>) =>
      call('POST', path, body ?? {}, headers),
    call,
    get cookie() {
      return cookie;
    },
  };
}

/**
 * A server listening on a port of `host` the kernel picked (port 0): its address is the port, held
 * for as long as it listens. Hand it to what will serve there (`serve(instance, { listening })`, or
 * `server.listen(held)`) instead of closing it and listening again, when a parallel test could take it.
 */
export async function listenOnFreePort(host = '127.0.0.1'): Promise<net.Server> {
  const server = net.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, resolve);
  });
  return server;
}
