// /metrics while the database is unreachable (docs/operations.md#metrics): gauges whose value nobody
// knows are left out rather than reported as 0, and the writes answered 503 are counted in the
// operations' outcomes with their code. The instance reaches its database through a TCP proxy (on port 0)
// that the test turns away and lets through again.
import { browser, createTestDatabase, startTestInstance } from '@tributary/test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { afterAll, beforeAll, describe, test } from 'vitest';

/** A proxy to `target`: down() cuts every connection and turns new ones away until up(). */
async function switchableProxy(target: { host: string; port: number }) {
  let down = false;
  const sockets = new Set<net.Socket>();
  const track = (s: net.Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => s.destroy());
  };
  const server = net.createServer((client) => {
    track(client);
    if (down) return void client.destroy();
    const upstream = net.connect(target.port, target.host);
    track(upstream);
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    down() {
      down = true;
      for (const s of sockets) s.destroy();
    },
    up() {
      down = false;
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** The samples of the exposition named `name`, as `labels value` lines. */
const samplesOf = (text: string, name: string) =>
  text.split('\n').filter((l) => l.startsWith(`${name} `) || l.startsWith(`${name}{`));

const valueOf = (text: string, name: string, labels: Record<string, string>) =>
  samplesOf(text, name)
    .filter((l) => Object.entries(labels).every(([k, v]) => l.includes(`${k}="${v}"`)))
    .reduce((sum, l) => sum + Number(l.slice(l.lastIndexOf(' ') + 1)), 0);

describe('metrics while the database is unreachable', () => {
  const db = createTestDatabase();
  let proxy: Awaited<ReturnType<typeof switchableProxy>>;
  let instance: Awaited<ReturnType<typeof startTestInstance>>;

  beforeAll(async () => {
    const { url, drop } = await db;
    const target = new URL(url);
    proxy = await switchableProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const viaProxy = new URL(url);
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String(proxy.port);
    instance = await startTestInstance({
      env: { DATABASE_CONNECT_TIMEOUT_MS: '1000' },
      reuse: { databaseUrl: viaProxy.toString(), dataDir: '', drop },
    });
  });
  afterAll(async () => {
    proxy?.up();
    await instance?.destroy();
    await proxy?.close();
  });

  const scrape = async () => {
    const res = await fetch(`${instance.url}/metrics`);
    assert.equal(res.status, 200);
    return res.text();
  };

  test('given the database is down, when a write is answered 503 and /metrics is scraped, then the write is counted with service.unavailable and the state gauges nobody can read are absent, not 0', async () => {
    const ada = browser(instance.url);
    const signup = await ada.post('/api/auth/signup', { handle: 'ada', password: 'correct horse battery' });
    assert.equal(signup.status, 201, signup.text);
    const before = await scrape();
    assert.equal(valueOf(before, 'tributary_metrics_database_up', {}), 1);
    assert.equal(samplesOf(before, 'tributary_sequencer_head').length, 1);
    const counted = { operation: 'svc.agent.create_persona', outcome: 'error', code: 'service.unavailable' };
    const unavailableBefore = valueOf(before, 'tributary_operations_total', counted);

    proxy.down();
    const down = await ada.post('/api/ops/svc.agent.create_persona', { name: 'During' });
    assert.equal(down.status, 503, down.text);
    assert.equal(down.json.code, 'service.unavailable');

    const during = await scrape();
    assert.equal(valueOf(during, 'tributary_metrics_database_up', {}), 0);
    for (const gauge of [
      'tributary_sequencer_head',
      'tributary_sequencer_unsequenced_events',
      'tributary_sequencer_oldest_unsequenced_age_seconds',
      'tributary_projection_lag_events',
    ])
      assert.deepEqual(samplesOf(during, gauge), [], `${gauge} while nobody can read it`);
    assert.equal(valueOf(during, 'tributary_operations_total', counted), unavailableBefore + 1);

    proxy.up();
    const after = await scrape();
    assert.equal(valueOf(after, 'tributary_metrics_database_up', {}), 1);
    assert.equal(samplesOf(after, 'tributary_sequencer_head').length, 1);
  });
});
