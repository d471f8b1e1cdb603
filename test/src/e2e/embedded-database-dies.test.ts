// The embedded PostgreSQL dies under a running instance (killed, or a full disk makes it PANIC): the
// instance logs it, /healthz answers 503 server.unhealthy while it is down, and the instance starts it
// again by itself (with backoff) and serves writes once it can. The disk-full case runs on a small
// tmpfs where this machine lets the test mount one (root); elsewhere the server is killed instead.
import { browser } from '@tributary/test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtemp, open, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, test } from 'vitest';
import { logLines, startProcess, waitForLine, type StartedProcess } from './start-helpers.js';

const PASSWORD = 'correct horse battery';

async function startOn(dataDir: string): Promise<{ proc: StartedProcess; url: string }> {
  const proc = startProcess({ TRIBUTARY_DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'info' });
  const exitedEarly = proc.exited.then(() => {
    throw new Error(`exited early: ${proc.output()}`);
  });
  const line = await Promise.race([waitForLine(proc, 'tributary is ready', 180_000), exitedEarly]);
  return { proc, url: `http://${String(line.listening)}` };
}

/** The embedded server's pid and a superuser URL to it, from its data folder. */
async function embeddedServer(dataDir: string): Promise<{ pid: number; url: string }> {
  const lines = (await readFile(join(dataDir, 'postgres', 'postmaster.pid'), 'utf8')).split('\n');
  const password = (await readFile(join(dataDir, 'postgres', '.tributary-password'), 'utf8')).trim();
  return {
    pid: Number(lines[0]),
    url: `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${lines[3]}/tributary`,
  };
}

async function until<T>(
  what: string,
  proc: StartedProcess,
  timeoutMs: number,
  probe: () => Promise<T | undefined>,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    // A probe that never answers (a request the instance holds) must not hold the test: it loses the race.
    const value = await Promise.race([
      probe().catch(() => undefined),
      new Promise<undefined>((r) =>
        setTimeout(() => r(undefined), Math.max(1_000, deadline - Date.now())).unref(),
      ),
    ]);
    if (value !== undefined) return value;
    if (Date.now() > deadline)
      throw new Error(`${what}: not within ${timeoutMs} ms; output:\n${proc.output()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** `promise`, or a failure naming `what` (with the instance's output) after `ms`. */
async function bounded<T>(what: string, ms: number, proc: StartedProcess, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`${what}: not within ${ms} ms; output:\n${proc.output()}`)),
          ms,
        );
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

const healthz = (url: string) =>
  fetch(`${url}/healthz`, { signal: AbortSignal.timeout(10_000) }).then(async (r) => ({
    status: r.status,
    body: (await r.json()) as { code?: string },
  }));

/** Mounts a tmpfs of `size` on a new folder; undefined where this machine does not allow it. */
async function smallFilesystem(size: string): Promise<string | undefined> {
  const dir = await mkdtemp(join(tmpdir(), 'trib-small-fs-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size},mode=0755`, 'tmpfs', dir], { stdio: 'pipe' });
    return dir;
  } catch {
    await rm(dir, { recursive: true, force: true });
    return undefined;
  }
}

/** Writes a file until the file system is full. */
async function fill(file: string): Promise<void> {
  const handle = await open(file, 'w');
  const chunk = Buffer.alloc(1024 * 1024, 1);
  try {
    for (;;) {
      try {
        await handle.write(chunk);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOSPC') break;
        throw e;
      }
    }
    // The last bytes a whole chunk did not fit in.
    for (;;) {
      try {
        await handle.write(Buffer.alloc(4096, 1));
      } catch {
        break;
      }
    }
  } finally {
    await handle.close();
  }
}

describe('the embedded PostgreSQL dies under a running instance', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  });

  /** Runs an instance on `dataDir`, applies `fault` to its embedded server, and checks that it comes back. */
  async function diesAndComesBack(
    dataDir: string,
    fault: (server: { pid: number; url: string }) => Promise<void>,
    recover: () => Promise<void>,
  ) {
    const { proc, url } = await startOn(dataDir);
    const step = <T>(what: string, promise: Promise<T>, ms = 60_000) => bounded(what, ms, proc, promise);
    cleanups.push(async () => {
      if (proc.child.exitCode === null && proc.child.signalCode === null) {
        proc.child.kill('SIGTERM');
        const stuck = setTimeout(() => proc.child.kill('SIGKILL'), 20_000);
        await proc.exited;
        clearTimeout(stuck);
      }
    });
    const ada = browser(url);
    const signup = await step('sign up', ada.post('/api/auth/signup', { handle: 'ada', password: PASSWORD }));
    assert.equal(signup.status, 201, signup.text);
    assert.equal((await healthz(url)).status, 200);

    const server = await embeddedServer(dataDir);
    await step('the fault', fault(server), 120_000);

    // Noticed: /healthz fails while the server is down, and the exit is logged at error.
    const unhealthy = await until('/healthz 503', proc, 30_000, async () => {
      const h = await healthz(url);
      return h.status === 503 ? h : undefined;
    });
    assert.equal(unhealthy.body.code, 'server.unhealthy');
    const exited = await waitForLine(proc, 'embedded PostgreSQL exited by itself', 10_000);
    assert.equal(exited.event, 'embedded_postgres.exited');
    assert.equal(exited.level, 50);

    await step('the recovery', recover());
    // Resumes by itself: healthy again, and a write goes through on the signed-in session.
    await until('/healthz 200', proc, 120_000, async () =>
      (await healthz(url)).status === 200 ? true : undefined,
    );
    const persona = await until('a write', proc, 60_000, async () => {
      const r = await ada.post('/api/ops/svc.agent.create_persona', { name: 'After' });
      return r.status === 201 ? r : undefined;
    });
    assert.equal(persona.json.result.name, 'After');
    assert.ok(
      logLines(proc.stdout()).some((l) => l.event === 'embedded_postgres.restarted'),
      proc.output(),
    );
    const restarted = await embeddedServer(dataDir);
    assert.notEqual(restarted.pid, server.pid);

    proc.child.kill('SIGTERM');
    assert.equal(await bounded('the instance stops on SIGTERM', 60_000, proc, proc.exited), 0, proc.output());
    return exited;
  }

  test('given the embedded server killed (SIGKILL), then the instance logs it, fails /healthz, starts it again and serves writes', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'trib-pg-dies-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    await diesAndComesBack(
      dataDir,
      async ({ pid }) => void process.kill(pid, 'SIGKILL'),
      async () => undefined,
    );
  });

  test('given a full disk that makes the embedded server stop, then the instance logs it, fails /healthz, and resumes by itself once space is freed', async () => {
    const mounted = await smallFilesystem('160m');
    const dataDir = mounted ?? (await mkdtemp(join(tmpdir(), 'trib-pg-full-')));
    cleanups.push(async () => {
      if (mounted) execFileSync('umount', ['-l', mounted], { stdio: 'pipe' });
      await rm(dataDir, { recursive: true, force: true });
    });
    const filler = join(dataDir, 'filler');
    const exited = await diesAndComesBack(
      dataDir,
      async ({ pid, url }) => {
        if (!mounted) return void process.kill(pid, 'SIGKILL'); // no small file system here
        await fill(filler);
        // The log moves on to a new WAL segment, as a long enough run of writes would: with no room for
        // it, PostgreSQL PANICs.
        // Each step bounded: a server short of space may take a connection and never answer it.
        const client = new pg.Client({
          connectionString: url,
          connectionTimeoutMillis: 10_000,
          query_timeout: 20_000,
        });
        client.on('error', () => undefined);
        await client.connect().catch(() => undefined);
        await client.query('CREATE TABLE IF NOT EXISTS disk_full_probe (n int)').catch(() => undefined);
        await client.query('INSERT INTO disk_full_probe VALUES (1)').catch(() => undefined);
        await client.query('SELECT pg_switch_wal()').catch(() => undefined);
        await client.query('CHECKPOINT').catch(() => undefined);
        await client.end().catch(() => undefined);
      },
      async () => {
        if (mounted) await rm(filler, { force: true });
      },
    );
    // The fault was the one meant: the server stopped for want of space (its messages are in English).
    if (mounted) assert.match(String(exited.problem), /No space left on device/);
  });
});
