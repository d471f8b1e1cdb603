// `tributary start` as an operator runs it: a real process, embedded Postgres, signals.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { freePort } from '@tributary/test';

const CLI = fileURLToPath(new URL('../../../infra/bin/tributary.js', import.meta.url));

interface Proc {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function start(env: Record<string, string>): Proc {
  const { DATABASE_URL: _omit, ...rest } = process.env;
  const child = spawn(process.execPath, [CLI, 'start'], {
    env: { ...rest, BCRYPT_ROUNDS: '4', HOST: '127.0.0.1', ...env },
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  return { child, output: () => out, exited };
}

async function ready(port: number, proc: Proc, timeoutMs = 120_000) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (proc.child.exitCode !== null) throw new Error(`exited early: ${proc.output()}`);
    const r = await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => null);
    if (r?.status === 200) return;
    await new Promise((res) => setTimeout(res, 250));
  }
  throw new Error(`not ready in time: ${proc.output()}`);
}

describe('tributary start on embedded Postgres', () => {
  let dataDir: string;
  let port: number;
  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'trib-start-'));
    port = await freePort();
  });
  after(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  test('given no DATABASE_URL, when started, stopped with SIGTERM and started again, then it serves /readyz and keeps data and key', async () => {
    const env = { TRIBUTARY_DATA_DIR: dataDir, PORT: String(port) };
    const first = start(env);
    await ready(port, first);
    const health = await fetch(`http://127.0.0.1:${port}/healthz`);
    assert.equal(health.status, 200);
    const signup = await fetch(`http://127.0.0.1:${port}/api/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ handle: 'operator', password: 'correct horse battery' }),
    });
    assert.equal(signup.status, 201);
    const cookie = signup.headers.getSetCookie()[0]!.split(';')[0]!;
    const ctx1 = (await (
      await fetch(`http://127.0.0.1:${port}/api/ops/svc.instance.context`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie },
        body: '{}',
      })
    ).json()) as { result: { instance: { instanceId: string } } };

    // While it runs, a second start on the same port fails fast with one clear line.
    const clash = start({ TRIBUTARY_DATA_DIR: join(dataDir, 'other'), PORT: String(port) });
    assert.equal(await clash.exited, 1);
    assert.match(clash.output(), new RegExp(`tributary: port ${port} is already in use`));

    // The operator's tools work beside the running instance, on the same embedded cluster.
    const { DATABASE_URL: _omit, ...rest } = process.env;
    const verify = await new Promise<{ code: number | null; out: string }>((resolve) => {
      const c = spawn(process.execPath, [CLI, 'log', 'verify'], {
        env: { ...rest, TRIBUTARY_DATA_DIR: dataDir },
      });
      let out = '';
      c.stdout.on('data', (d) => (out += d));
      c.stderr.on('data', (d) => (out += d));
      c.on('exit', (code) => resolve({ code, out }));
    });
    assert.equal(verify.code, 0, verify.out);
    assert.match(verify.out, /log verify: OK/);

    first.child.kill('SIGTERM');
    assert.equal(await first.exited, 0, first.output());
    assert.doesNotMatch(first.output(), /PRIVATE KEY/);

    const second = start(env);
    await ready(port, second);
    const signin = await fetch(`http://127.0.0.1:${port}/api/auth/signin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ identifier: 'operator', password: 'correct horse battery' }),
    });
    assert.equal(signin.status, 200);
    const cookie2 = signin.headers.getSetCookie()[0]!.split(';')[0]!;
    const ctx2 = (await (
      await fetch(`http://127.0.0.1:${port}/api/ops/svc.instance.context`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: cookie2 },
        body: '{}',
      })
    ).json()) as { result: { instance: { instanceId: string } } };
    assert.equal(ctx2.result.instance.instanceId, ctx1.result.instance.instanceId);
    second.child.kill('SIGINT');
    assert.equal(await second.exited, 0, second.output());
  });

  test('given a data folder that is a file, when started, then it exits 1 with one clear line', async () => {
    const file = join(dataDir, 'not-a-folder');
    await writeFile(file, 'x');
    const p = start({ TRIBUTARY_DATA_DIR: file, PORT: String(await freePort()) });
    assert.equal(await p.exited, 1);
    const lines = p.output().trim().split('\n');
    assert.match(lines[lines.length - 1]!, /^tributary: .*not-a-folder/);
  });
});
