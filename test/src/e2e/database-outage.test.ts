// The database goes away under a running instance (its connections cut, new ones refused) and comes
// back: a write meanwhile is a 503 with Retry-After, not a 500, changes nothing, and works again after.
// The instance reaches its database through a TCP proxy on loopback that the test closes and reopens.
import { browser, createTestDatabase, startTestInstance } from '@tributary/test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { afterAll, beforeAll, describe, test } from 'vitest';
import pg from 'pg';

/**
 * A TCP proxy to `target` on `port`: close() cuts every connection and refuses new ones until open();
 * blackhole() cuts every connection and then accepts new ones but never answers, as a host that drops
 * packets would.
 */
function proxy(target: { host: string; port: number }) {
  const sockets = new Set<net.Socket>();
  let server: net.Server | null = null;
  // The kernel picks the port on the first open; opening again after a close takes the same one back.
  let port = 0;
  let silent = false;
  const track = (s: net.Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => s.destroy());
  };
  return {
    async open() {
      if (server) return;
      server = net.createServer((client) => {
        if (silent) {
          track(client);
          return;
        }
        const upstream = net.connect(target.port, target.host);
        track(client);
        track(upstream);
        client.pipe(upstream).pipe(client);
        client.on('close', () => upstream.destroy());
        upstream.on('close', () => client.destroy());
      });
      await new Promise<void>((resolve, reject) => {
        server!.once('error', reject);
        server!.listen(port, '127.0.0.1', resolve);
      });
      port = (server.address() as net.AddressInfo).port;
    },
    get port() {
      return port;
    },
    blackhole() {
      silent = true;
      for (const s of sockets) s.destroy();
    },
    answer() {
      silent = false;
      for (const s of sockets) s.destroy();
    },
    async close() {
      const closed = new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
      for (const s of sockets) s.destroy();
      await closed;
      server = null;
    },
  };
}

describe('a write while the database is unreachable', () => {
  const db = createTestDatabase();
  let pgProxy: ReturnType<typeof proxy>;
  let instance: Awaited<ReturnType<typeof startTestInstance>>;
  let direct: pg.Pool;

  beforeAll(async () => {
    const { url, drop } = await db;
    const target = new URL(url);
    pgProxy = proxy({ host: target.hostname, port: Number(target.port || 5432) });
    await pgProxy.open();
    const viaProxy = new URL(url);
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String(pgProxy.port);
    instance = await startTestInstance({
      env: { DATABASE_CONNECT_TIMEOUT_MS: '1000' },
      reuse: { databaseUrl: viaProxy.toString(), dataDir: '', drop },
    });
    direct = new pg.Pool({ connectionString: url, max: 1 });
  });
  afterAll(async () => {
    await direct?.end();
    await pgProxy?.open(); // so the instance can close its pool cleanly
    await instance?.destroy();
    await pgProxy?.close();
  });

  const logHead = async () =>
    (await direct.query<{ n: string }>('SELECT count(*) AS n FROM events')).rows[0]!.n;

  test('given the database is down, when a signed-in operator writes, then 503 service.unavailable with Retry-After, nothing written; and once it is back, the write succeeds', async () => {
    const ada = browser(instance.url);
    assert.equal(
      (await ada.post('/api/auth/signup', { handle: 'ada', password: 'correct horse battery' })).status,
      201,
    );
    const first = await ada.post('/api/ops/svc.agent.create_persona', { name: 'Before' });
    assert.equal(first.status, 201, first.text);
    const head = await logHead();

    await pgProxy.close();
    const down = await ada.post('/api/ops/svc.agent.create_persona', { name: 'During' });
    assert.equal(down.status, 503, down.text);
    assert.match(down.headers.get('content-type') ?? '', /^application\/problem\+json/);
    assert.equal(down.json.code, 'service.unavailable');
    assert.equal(down.headers.get('retry-after'), '5');
    assert.equal(down.json.retryAfter, 5);
    // A cookie-less write and the readiness probe say the same.
    const anonymous = await browser(instance.url).post('/api/auth/signin', {
      identifier: 'ada',
      password: 'correct horse battery',
    });
    assert.equal(anonymous.status, 503, anonymous.text);
    assert.equal(anonymous.json.code, 'service.unavailable');
    assert.equal((await fetch(`${instance.url}/readyz`)).status, 503);
    assert.equal(await logHead(), head);

    await pgProxy.open();
    const again = await ada.post('/api/ops/svc.agent.create_persona', { name: 'After' });
    assert.equal(again.status, 201, again.text);
    assert.equal(again.json.result.name, 'After');
    assert.ok(Number(await logHead()) > Number(head));
  });

  test('given a database host that accepts connections but never answers, when a write comes, then 503 service.unavailable after DATABASE_CONNECT_TIMEOUT_MS instead of a request held open, nothing written', async () => {
    const ada = browser(instance.url);
    const signin = await ada.post('/api/auth/signin', {
      identifier: 'ada',
      password: 'correct horse battery',
    });
    assert.equal(signin.status, 200, signin.text);
    const head = await logHead();

    pgProxy.blackhole();
    // Let the pool see its connections cut, so the write needs a new one.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const started = Date.now();
    const down = await ada.post('/api/ops/svc.agent.create_persona', { name: 'Into the void' });
    const waited = Date.now() - started;
    assert.equal(down.status, 503, down.text);
    assert.equal(down.json.code, 'service.unavailable');
    assert.equal(down.headers.get('retry-after'), '5');
    // Bounded by the connect timeout (1 s here), with room for a loaded machine; without it the
    // request waited for the operating system's TCP timeout.
    assert.ok(waited < 15_000, `answered after ${waited} ms`);
    pgProxy.answer();
    assert.equal(await logHead(), head);

    const again = await ada.post('/api/ops/svc.agent.create_persona', { name: 'Back again' });
    assert.equal(again.status, 201, again.text);
  });
});
