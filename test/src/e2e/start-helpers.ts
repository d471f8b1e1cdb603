// `tributary start` as an operator runs it: a real process, read through its output and over HTTP.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

export const CLI = fileURLToPath(new URL('../../../infra/bin/tributary.js', import.meta.url));

export interface StartedProcess {
  child: ChildProcess;
  /** Everything it printed so far, stdout and stderr interleaved. */
  output: () => string;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

/**
 * Spawns `tributary start` with `env` over this process's (without DATABASE_URL, so embedded Postgres
 * unless `env` names one). `detached`: in its own process group, as a shell runs a foreground job, so a
 * test can signal the whole group as a terminal's Ctrl-C does. `args`: after `start` (`--role api`).
 */
export function startProcess(
  env: Record<string, string>,
  o: { detached?: boolean; args?: string[]; defaultHost?: boolean } = {},
): StartedProcess {
  const { DATABASE_URL: _omit, HOST: _host, ...rest } = process.env;
  // `defaultHost`: HOST unset, as on a fresh clone; otherwise loopback unless `env` says.
  const child = spawn(process.execPath, [CLI, 'start', ...(o.args ?? [])], {
    env: { ...rest, BCRYPT_ROUNDS: '4', ...(!o.defaultHost && { HOST: '127.0.0.1' }), ...env },
    detached: o.detached ?? false,
  });
  let out = '';
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => {
    out += d;
    stdout += d;
  });
  child.stderr!.on('data', (d) => {
    out += d;
    stderr += d;
  });
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  return { child, output: () => out, stdout: () => stdout, stderr: () => stderr, exited };
}

/** Where a process started on PORT=0 (or METRICS_PORT=0) listens, as it reported it. */
export interface ReportedAddress {
  pid: number;
  role: string;
  /** Where this machine reaches its HTTP server; null for a worker. */
  url: string | null;
  port: number | null;
  baseUrl: string | null;
  metricsUrl: string | null;
  metricsPort: number | null;
}

/**
 * Spawns `tributary start` as `startProcess` does, on the ports the kernel picks (PORT=0 unless `env`
 * names one), telling it to report where it listens in a file of its own (TRIBUTARY_ADDRESS_FILE).
 * `address()` waits for that report.
 */
export function startReporting(
  env: Record<string, string>,
  o: { detached?: boolean; args?: string[] } = {},
): StartedProcess & { address: (timeoutMs?: number) => Promise<ReportedAddress> } {
  const file = join(tmpdir(), `trib-address-${process.pid}-${randomUUID()}.json`);
  const proc = startProcess({ PORT: '0', ...env, TRIBUTARY_ADDRESS_FILE: file }, o);
  let reported: Promise<ReportedAddress> | undefined;
  const address = (timeoutMs = 120_000) =>
    (reported ??= (async () => {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const text = await readFile(file, 'utf8').catch(() => null);
        if (text !== null) {
          await rm(file, { force: true });
          const a = JSON.parse(text) as Omit<ReportedAddress, 'port' | 'metricsPort'>;
          const portOf = (url: string | null) => (url ? Number(new URL(url).port) : null);
          return { ...a, port: portOf(a.url), metricsPort: portOf(a.metricsUrl) };
        }
        if (proc.child.exitCode !== null || proc.child.signalCode !== null)
          throw new Error(`exited before reporting its address: ${proc.output()}`);
        if (Date.now() > until) throw new Error(`no address reported in time: ${proc.output()}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    })());
  return { ...proc, address };
}

/** Waits until `/readyz` answers 200 on `port`; fails with the output if the process exits first. */
export async function ready(port: number, proc: StartedProcess, timeoutMs = 120_000, host = '127.0.0.1') {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (proc.child.exitCode !== null) throw new Error(`exited early: ${proc.output()}`);
    const r = await fetch(`http://${host}:${port}/readyz`).catch(() => null);
    if (r?.status === 200) return;
    await new Promise((res) => setTimeout(res, 250));
  }
  throw new Error(`not ready in time: ${proc.output()}`);
}

/**
 * The instance a crash test runs as a real process: `run` stops the one running (SIGTERM), starts
 * `tributary start` on `env()` again — with TRIBUTARY_FAILPOINTS when a failpoint is named, so it kills
 * itself there — and waits until it is ready on env().PORT.
 */
export function failpointProcess(env: () => Record<string, string>) {
  const self = {
    proc: undefined as StartedProcess | undefined,
    async run(failpoint?: string): Promise<StartedProcess> {
      const running = self.proc;
      if (running && running.child.exitCode === null && running.child.signalCode === null) {
        running.child.kill('SIGTERM');
        await running.exited;
      }
      const e = env();
      const proc = startProcess({ ...e, ...(failpoint && { TRIBUTARY_FAILPOINTS: failpoint }) });
      self.proc = proc;
      await ready(Number(e.PORT), proc);
      return proc;
    },
  };
  return self;
}

/**
 * The environment of a global instance run as a real process on a test instance's database and data
 * folder, at the same address (so its peers' entries hold), sync off; `extra` adds to it (Stripe's keys).
 */
export function globalProcessEnv(
  at: { databaseUrl: string; dataDir: string; url: string },
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    NODE_ENV: 'test',
    DATABASE_URL: at.databaseUrl,
    TRIBUTARY_DATA_DIR: at.dataDir,
    PORT: new URL(at.url).port,
    BASE_URL: at.url,
    LOG_LEVEL: 'warn',
    FEDERATION_SYNC: 'off',
    INSTANCE_ROLE: 'global',
    INSTANCE_NAME: 'Global',
    ...extra,
  };
}

/** A row as pg gives it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Row = Record<string, any>;

/** The rows of one query on the database at `url`, on a connection of its own (a process may hold none). */
export async function queryRows(url: string, sql: string, values: unknown[] = []): Promise<Row[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql, values)).rows as Row[];
  } finally {
    await client.end();
  }
}

/** The JSON log lines a process printed (pino), in order. */
export function logLines(text: string): { level: number; msg: string; [k: string]: unknown }[] {
  return text
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .flatMap((l) => {
      try {
        return [JSON.parse(l) as { level: number; msg: string }];
      } catch {
        return [];
      }
    });
}

/** The first log line whose message starts with `prefix`, waiting for it (the log is written asynchronously). */
export async function waitForLine(proc: StartedProcess, prefix: string, timeoutMs = 10_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const line = logLines(proc.stdout()).find((l) => l.msg.startsWith(prefix));
    if (line) return line;
    if (Date.now() > until) throw new Error(`no line "${prefix}…" in:\n${proc.output()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
