// `tributary start` as an operator runs it: a real process, embedded Postgres, signals.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { createTestDatabase } from '@tributary/test';
import { CLI, logLines, ready, startProcess as start, startReporting, waitForLine } from './start-helpers.js';

describe('tributary start on embedded Postgres', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'trib-start-'));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  test('given no DATABASE_URL, when started, stopped with SIGTERM and started again, then it serves /readyz and keeps data and key', async () => {
    // The first start on a port the kernel picks; the restart on the port it reported.
    const first = startReporting({ TRIBUTARY_DATA_DIR: dataDir });
    const port = (await first.address()).port!;
    const env = { TRIBUTARY_DATA_DIR: dataDir, PORT: String(port) };
    await ready(port, first);
    const health = await fetch(`http://127.0.0.1:${port}/healthz`);
    assert.equal(health.status, 200);
    const signup = await fetch(`http://127.0.0.1:${port}/api/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ handle: 'opal', password: 'correct horse battery' }),
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
    // The first start says what takes it so long before it is ready.
    const said = logLines(first.stdout()).map((l) => l.msg);
    assert.ok(
      said.includes('preparing the embedded database (first start: this takes a little while)…'),
      said.join('\n'),
    );
    assert.ok(
      said.some((m) => /^applying \d+ database migrations…$/.test(m)),
      said.join('\n'),
    );

    const second = start(env);
    await ready(port, second);
    const signin = await fetch(`http://127.0.0.1:${port}/api/auth/signin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ identifier: 'opal', password: 'correct horse battery' }),
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
    assert.ok(logLines(second.stdout()).some((l) => l.msg === 'starting the embedded database…'));
  });

  test('given a terminal Ctrl-C (SIGINT to the whole process group), when the instance holds idle database connections, then it shuts down in order, quietly, with exit code 0', async () => {
    const proc = startReporting({ TRIBUTARY_DATA_DIR: dataDir, LOG_LEVEL: 'info' }, { detached: true });
    let port = 0;
    try {
      port = (await proc.address()).port!;
      await ready(port, proc);
      // Several requests at once: the pool holds several idle connections when the signal comes.
      await Promise.all(
        Array.from({ length: 6 }, () =>
          fetch(`http://127.0.0.1:${port}/api/federation/events?since=0&limit=10`).then((r) => r.text()),
        ),
      );
    } catch (e) {
      process.kill(-proc.child.pid!, 'SIGKILL');
      throw e;
    }
    // What a terminal does on Ctrl-C: SIGINT to every process of the foreground group.
    process.kill(-proc.child.pid!, 'SIGINT');
    assert.equal(await proc.exited, 0, proc.output());

    // No warnings of connections cut under the pool, from the instance or from Postgres.
    assert.doesNotMatch(proc.output(), /idle database client|terminating connection|Connection terminated/i);
    assert.deepEqual(
      logLines(proc.stdout()).filter((l) => l.level >= 40),
      [],
      'nothing at warn or above',
    );
    assert.equal(proc.stderr(), '');
    const steps = [
      'shutting down',
      'http server closed',
      'background loops stopped',
      'database pool closed',
      'embedded Postgres stopped',
      'stopped',
    ];
    const seen = logLines(proc.stdout())
      .map((l) => l.msg)
      .filter((m) => steps.includes(m));
    assert.deepEqual(seen, steps);
  });

  test('given a data folder that is a file, when started, then it exits 1 with one clear line', async () => {
    const file = join(dataDir, 'not-a-folder');
    await writeFile(file, 'x');
    const p = start({ TRIBUTARY_DATA_DIR: file, PORT: '0' });
    assert.equal(await p.exited, 1);
    const lines = p.output().trim().split('\n');
    assert.match(lines[lines.length - 1]!, /^tributary: .*not-a-folder/);
  });
});

describe('tributary start: where it listens', () => {
  test('given PORT=0 and METRICS_PORT=0, when started with TRIBUTARY_ADDRESS_FILE, then the file names the ports the kernel gave, it serves there, and its public address names that port', async () => {
    const db = await createTestDatabase();
    const dataDir = await mkdtemp(join(tmpdir(), 'trib-port0-'));
    const proc = startReporting({
      DATABASE_URL: db.url,
      TRIBUTARY_DATA_DIR: dataDir,
      METRICS_PORT: '0',
      METRICS_HOST: '127.0.0.1',
      FEDERATION_SYNC: 'off',
    });
    try {
      const a = await proc.address();
      assert.equal(a.pid, proc.child.pid);
      assert.equal(a.role, 'all');
      assert.ok(a.port! > 0 && a.metricsPort! > 0 && a.port !== a.metricsPort);
      assert.equal(a.url, `http://127.0.0.1:${a.port}`);
      // No BASE_URL given: the public address is the port really bound, never port 0.
      assert.equal(a.baseUrl, a.url);
      await ready(a.port!, proc);
      const manifest = (await (await fetch(`${a.url}/api/federation/manifest`)).json()) as {
        baseUrl: string;
      };
      assert.equal(manifest.baseUrl, a.url);
      assert.equal((await fetch(`${a.metricsUrl}/metrics`)).status, 200);
      assert.equal((await fetch(`${a.url}/metrics`)).status, 404);
    } finally {
      proc.child.kill('SIGTERM');
      assert.equal(await proc.exited, 0, proc.output());
      await rm(dataDir, { recursive: true, force: true });
      await db.drop();
    }
  });

  test('given HOST, when started, then it binds that address only and its ready line says so; given 0.0.0.0, it binds every interface and says so', async () => {
    const db = await createTestDatabase();
    const dataDir = await mkdtemp(join(tmpdir(), 'trib-host-'));
    const base = { DATABASE_URL: db.url, TRIBUTARY_DATA_DIR: dataDir, LOG_LEVEL: 'info' };
    let port = 0;
    const reachable = (address: string) =>
      fetch(`http://${address}:${port}/healthz`).then(
        (r) => r.status === 200,
        () => false,
      );
    try {
      // 127.0.0.2 is loopback too, yet another address than 127.0.0.1: it shows what is bound.
      const one = startReporting({ ...base, HOST: '127.0.0.2' });
      try {
        port = (await one.address()).port!;
        await ready(port, one, 120_000, '127.0.0.2');
        assert.equal(await reachable('127.0.0.1'), false);
        const line = await waitForLine(one, 'tributary is ready');
        assert.equal(line.listening, `127.0.0.2:${port}`);
        assert.match(line.msg, new RegExp(`listening on 127\\.0\\.0\\.2:${port}`));
      } finally {
        one.child.kill('SIGTERM');
        assert.equal(await one.exited, 0, one.output());
      }

      // Again on the port the first start reported: a port this test held, not one picked free.
      const all = start({ ...base, PORT: String(port), HOST: '0.0.0.0' });
      try {
        await ready(port, all);
        assert.equal(await reachable('127.0.0.2'), true);
        const line = await waitForLine(all, 'tributary is ready');
        assert.equal(line.listening, `0.0.0.0:${port} (every IPv4 interface)`);
        assert.doesNotMatch(line.msg, /127\.0\.0\.1/);
      } finally {
        all.child.kill('SIGTERM');
        assert.equal(await all.exited, 0, all.output());
      }
    } finally {
      await db.drop();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
