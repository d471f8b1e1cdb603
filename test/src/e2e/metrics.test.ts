// GET /metrics over real HTTP against started instances (docs/operations.md#metrics): who may read it
// (bearer token, loopback only, forwarded clients), METRICS_PORT's own listener, the exposition parsed
// line by line, and counters that move by exactly what real requests and commands did, under route
// patterns rather than raw paths.
import {
  browser,
  createTestDatabase,
  startTestInstance,
  type TestDatabase,
  type TestInstance,
} from '@tributary/test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { ready, startReporting, waitForLine, type StartedProcess } from './start-helpers.js';

const TOKEN = 'metrics-token-0123456789abcdef';
const password = 'correct horse battery';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/**
 * A strict reader of the Prometheus text format 0.0.4: every line is a `# HELP`/`# TYPE` comment or a
 * sample `name{label="value",…} number`; anything else fails the test. Every sample's family has a TYPE.
 */
function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  const typed = new Map<string, string>();
  const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const meta = /^# (HELP|TYPE) (\S+) (.*)$/.exec(line);
    if (meta) {
      assert.match(meta[2]!, NAME, line);
      if (meta[1] === 'TYPE') {
        assert.ok(['counter', 'gauge', 'histogram', 'summary', 'untyped'].includes(meta[3]!), line);
        typed.set(meta[2]!, meta[3]!);
      }
      continue;
    }
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)(?: \d+)?$/.exec(line);
    assert.ok(m, `not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    let rest = m[2] ?? '';
    while (rest.length) {
      const l = /^([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)",?/.exec(rest);
      assert.ok(l, `bad labels in: ${line}`);
      labels[l[1]!] = l[2]!.replace(/\\n/g, '\n').replace(/\\"/g, '"').replace(/\\\\/g, '\\');
      rest = rest.slice(l[0].length);
    }
    const value = m[3] === '+Inf' ? Infinity : m[3] === '-Inf' ? -Infinity : Number(m[3]);
    // Prometheus reads values with Go's ParseFloat, which takes NaN in any case (prom-client writes the
    // event-loop mean as `Nan` before its first sample).
    assert.ok(!Number.isNaN(value) || /^nan$/i.test(m[3]!), `bad value in: ${line}`);
    const family = m[1]!.replace(/_(bucket|sum|count)$/, '');
    assert.ok(typed.has(m[1]!) || typed.has(family), `no TYPE for ${m[1]}`);
    samples.push({ name: m[1]!, labels, value });
  }
  return samples;
}

/** The sum of the samples named `name` whose labels include `where`. */
function total(samples: Sample[], name: string, where: Record<string, string> = {}): number {
  return samples
    .filter((s) => s.name === name && Object.entries(where).every(([k, v]) => s.labels[k] === v))
    .reduce((a, s) => a + s.value, 0);
}

const has = (samples: Sample[], name: string) => samples.some((s) => s.name === name);

async function scrape(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${url}/metrics`, { headers });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text };
}

/** GET `path` with a Host header of our choosing (fetch keeps the URL's own). */
function getWithHost(url: string, host: string, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}${path}`, { headers: { host } }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** A non-loopback IPv4 address of this machine, if it has one. */
function externalIPv4(): string | null {
  for (const list of Object.values(networkInterfaces()))
    for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  return null;
}

describe('metrics with METRICS_TOKEN on the public port', () => {
  let instance: TestInstance;
  beforeAll(async () => {
    instance = await startTestInstance({ env: { METRICS_TOKEN: TOKEN } });
  });
  afterAll(async () => {
    await instance?.destroy();
  });
  const auth = { authorization: `Bearer ${TOKEN}` };

  test('given a token, when scraped without it or with a wrong one, then 401 metrics.token_required; with it, 200 in the text format', async () => {
    const none = await scrape(instance.url);
    assert.equal(none.status, 401);
    assert.equal(JSON.parse(none.text).code, 'metrics.token_required');
    assert.match(none.headers.get('www-authenticate') ?? '', /^Bearer/);
    const wrong = await scrape(instance.url, { authorization: `Bearer ${TOKEN}x` });
    assert.equal(wrong.status, 401);
    const shortWrong = await scrape(instance.url, { authorization: 'Bearer x' });
    assert.equal(shortWrong.status, 401);
    const basic = await scrape(instance.url, { authorization: `Basic ${TOKEN}` });
    assert.equal(basic.status, 401);

    const ok = await scrape(instance.url, auth);
    assert.equal(ok.status, 200);
    assert.match(ok.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
    assert.equal(ok.headers.get('cache-control'), 'no-store');
    const samples = parseExposition(ok.text);
    for (const name of [
      'nodejs_eventloop_lag_p99_seconds',
      'tributary_db_pool_connections',
      'tributary_db_pool_idle_connections',
      'tributary_db_pool_waiting_clients',
      'tributary_sequencer_unsequenced_events',
      'tributary_sequencer_oldest_unsequenced_age_seconds',
      'tributary_sequencer_head',
      'tributary_projection_lag_events',
      'tributary_metrics_database_up',
    ])
      assert.ok(has(samples, name), `${name} missing`);
    assert.equal(total(samples, 'tributary_metrics_database_up'), 1);
    assert.ok(total(samples, 'tributary_db_pool_connections') >= 1);
    // The first start wrote events (instance.initialized …), all sequenced by now or soon.
    assert.ok(
      total(samples, 'tributary_sequencer_head') + total(samples, 'tributary_sequencer_unsequenced_events') >
        0,
    );
    assert.ok(samples.some((s) => s.name === 'tributary_projection_lag_events' && s.labels.projection));
  });

  test('given real requests and commands, then the counters move by exactly what was done, under route patterns', async () => {
    const before = parseExposition((await scrape(instance.url, auth)).text);
    const ada = browser(instance.url);
    assert.equal((await ada.post('/api/auth/signup', { handle: 'ada', password })).status, 201);
    for (const handle of ['ada_one', 'ada_two'])
      assert.equal(
        (await ada.post('/api/ops/svc.agent.create_persona', { name: handle, handle })).status,
        201,
      );
    // Refused: the handle is taken (a domain error) and bad input.
    assert.equal(
      (await ada.post('/api/ops/svc.agent.create_persona', { name: 'again', handle: 'ada_one' })).status,
      409,
    );
    assert.equal((await ada.post('/api/ops/svc.agent.create_persona', { nope: 1 })).status, 400);
    assert.equal((await ada.get('/no/such/path/12345')).status, 404);
    assert.equal((await ada.get('/sites/no-such-site/')).status, 404);
    // A site's own host keeps every path, /metrics too: the site server answers it, never the metrics.
    const onSiteHost = await getWithHost(instance.url, 'no-such-site.sites.localhost', '/metrics');
    assert.equal(onSiteHost.status, 404);
    assert.ok(!onSiteHost.body.includes('metrics.token_required'), onSiteHost.body);

    const after = parseExposition((await scrape(instance.url, auth)).text);
    const moved = (name: string, where: Record<string, string> = {}) =>
      total(after, name, where) - total(before, name, where);

    const op = { operation: 'svc.agent.create_persona', kind: 'command', surface: 'http' };
    assert.equal(moved('tributary_operations_total', { ...op, outcome: 'ok', code: '' }), 2);
    assert.equal(
      moved('tributary_operations_total', { ...op, outcome: 'error', code: 'agent.handle_taken' }),
      1,
    );
    assert.equal(moved('tributary_operations_total', { ...op, outcome: 'error', code: 'input.invalid' }), 1);
    assert.equal(moved('tributary_operation_duration_seconds_count', { operation: op.operation }), 4);
    assert.equal(
      moved('tributary_operations_total', { operation: 'svc.auth.sign_up', kind: 'command', outcome: 'ok' }),
      1,
    );

    const route = { route: '/api/ops/:name', method: 'POST' };
    assert.equal(moved('tributary_http_requests_total', { ...route, status: '201' }), 2);
    assert.equal(moved('tributary_http_requests_total', { ...route, status: '409' }), 1);
    assert.equal(moved('tributary_http_requests_total', { ...route, status: '400' }), 1);
    assert.equal(moved('tributary_http_request_duration_seconds_count', route), 4);
    assert.equal(
      moved('tributary_http_requests_total', { route: 'unmatched', method: 'GET', status: '404' }),
      1,
    );
    assert.equal(moved('tributary_http_requests_total', { route: 'site', method: 'GET', status: '404' }), 2);
    // The scrape before this one was counted too, under its fixed label.
    assert.ok(moved('tributary_http_requests_total', { route: '/metrics', status: '200' }) >= 1);

    // Sign-up and two personas committed (the refused ones did not): at least three appends, each counted.
    assert.ok(moved('tributary_event_append_duration_seconds_count', { outcome: 'committed' }) >= 3);
    assert.ok(moved('tributary_events_appended_total') >= 5);

    // Bounded cardinality: no label anywhere holds a raw path that was requested.
    for (const s of after)
      for (const v of Object.values(s.labels)) {
        assert.ok(!v.includes('svc.agent.create_persona') || s.name.startsWith('tributary_operation'), v);
        assert.ok(!v.includes('/no/such/path') && !v.includes('no-such-site'), v);
      }
  });
  test('given the token, device-token and protected-resource metadata routes (declared together), then each is counted under its own path', async () => {
    const before = parseExposition((await scrape(instance.url, auth)).text);
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    // No grant_type: each answers 400 invalid_request, which is enough to be counted.
    for (const path of ['/api/mcp/oauth/token', '/api/mcp/device/token', '/api/mcp/device/token'])
      assert.equal((await fetch(`${instance.url}${path}`, { method: 'POST', headers: form })).status, 400);
    for (const path of [
      '/.well-known/oauth-protected-resource',
      '/.well-known/oauth-protected-resource/api/mcp',
      '/.well-known/oauth-protected-resource/api/mcp',
      '/.well-known/oauth-protected-resource/api/mcp',
    ])
      assert.equal((await fetch(`${instance.url}${path}`)).status, 200);
    const after = parseExposition((await scrape(instance.url, auth)).text);
    const moved = (where: Record<string, string>) =>
      total(after, 'tributary_http_requests_total', where) -
      total(before, 'tributary_http_requests_total', where);
    assert.equal(moved({ route: '/api/mcp/oauth/token', method: 'POST', status: '400' }), 1);
    assert.equal(moved({ route: '/api/mcp/device/token', method: 'POST', status: '400' }), 2);
    assert.equal(moved({ route: '/.well-known/oauth-protected-resource', method: 'GET', status: '200' }), 1);
    assert.equal(
      moved({ route: '/.well-known/oauth-protected-resource/api/mcp', method: 'GET', status: '200' }),
      3,
    );
    assert.ok(
      !after.some((s) => s.labels.route?.includes('(pattern)') && s.labels.route.startsWith('/api/mcp')),
    );
    assert.ok(!after.some((s) => s.labels.route === '(pattern)'), 'no route shares the bare pattern label');
  });
});

describe('metrics without a token (loopback only)', () => {
  let instance: TestInstance;
  let trusting: TestInstance;
  let external: string | null;
  beforeAll(async () => {
    external = externalIPv4();
    instance = await startTestInstance({ env: { HOST: external ? '0.0.0.0' : '127.0.0.1' } });
    trusting = await startTestInstance({ env: { TRUST_PROXY: 'loopback' } });
  });
  afterAll(async () => {
    await instance?.destroy();
    await trusting?.destroy();
  });

  test('given no METRICS_TOKEN, then a loopback client is answered and a forwarded or remote one is refused 403', async () => {
    const port = new URL(instance.url).port;
    const local = await scrape(`http://127.0.0.1:${port}`);
    assert.equal(local.status, 200);
    parseExposition(local.text);
    // A proxy on this machine forwarding someone else, TRUST_PROXY unset: we cannot judge who, so no.
    const forwarded: Record<string, string>[] = [
      { 'x-forwarded-for': '127.0.0.1' },
      { forwarded: 'for=127.0.0.1' },
      { 'x-real-ip': '127.0.0.1' },
    ];
    for (const h of forwarded) {
      const r = await scrape(`http://127.0.0.1:${port}`, h);
      assert.equal(r.status, 403, JSON.stringify(h));
      assert.equal(JSON.parse(r.text).code, 'metrics.local_only');
    }
    if (external) {
      const remote = await scrape(`http://${external}:${port}`);
      assert.equal(remote.status, 403);
      assert.equal(JSON.parse(remote.text).code, 'metrics.local_only');
      // The rest of the instance answers that client as usual.
      assert.equal((await fetch(`http://${external}:${port}/healthz`)).status, 200);
    } else
      console.warn(
        'metrics test: no non-loopback IPv4 interface here; the remote-client refusal was not tried',
      );
  });

  test('given TRUST_PROXY=loopback, then the client the proxy reports decides: loopback answered, anyone else 403', async () => {
    assert.equal((await scrape(trusting.url, { 'x-forwarded-for': '127.0.0.1' })).status, 200);
    assert.equal((await scrape(trusting.url, { 'x-forwarded-for': '203.0.113.7' })).status, 403);
    // The proxy reports the right-most entry; a client-written left one does not help.
    assert.equal((await scrape(trusting.url, { 'x-forwarded-for': '127.0.0.1, 203.0.113.7' })).status, 403);
    assert.equal((await scrape(trusting.url)).status, 200);
  });
});

describe('metrics on METRICS_PORT, with Redis queues', () => {
  let instance: TestInstance;
  beforeAll(async () => {
    // Port 0: the kernel picks a free one, and metricsUrl says which.
    const env: Record<string, string> = { METRICS_PORT: '0' };
    if (process.env.REDIS_URL)
      Object.assign(env, { REDIS_URL: process.env.REDIS_URL, FEDERATION_SYNC: 'on' });
    instance = await startTestInstance({ env });
  });
  afterAll(async () => {
    await instance?.destroy();
  });

  test('given METRICS_PORT, then /metrics answers there and not on the public port', async () => {
    const metricsPort = Number(/^http:\/\/127\.0\.0\.1:(\d+)$/.exec(instance.metricsUrl ?? '')?.[1]);
    assert.ok(metricsPort > 0);
    assert.notEqual(metricsPort, Number(new URL(instance.url).port));
    const publicPort = await scrape(instance.url);
    assert.equal(publicPort.status, 404);
    assert.equal(JSON.parse(publicPort.text).code, 'route.not_found');
    const own = await scrape(instance.metricsUrl!);
    assert.equal(own.status, 200);
    const samples = parseExposition(own.text);
    assert.ok(has(samples, 'tributary_http_requests_total'));
    // The public port's 404 for /metrics was an ordinary unmatched request there.
    assert.equal(total(samples, 'tributary_http_requests_total', { route: 'unmatched', status: '404' }), 1);
    assert.equal((await fetch(`${instance.metricsUrl}/api/ops/svc.instance.context`)).status, 404);
    assert.equal((await fetch(`${instance.metricsUrl}/metrics`, { method: 'POST' })).status, 405);
    if (process.env.REDIS_URL) {
      for (const state of ['waiting', 'active', 'delayed', 'failed'])
        assert.ok(
          samples.some(
            (s) =>
              s.name === 'tributary_queue_jobs' &&
              s.labels.queue === 'federation-sync' &&
              s.labels.state === state,
          ),
          `federation-sync ${state} missing`,
        );
    } else console.warn('metrics test: REDIS_URL unset; the queue depths were not tried');
  });
});

describe('metrics of a real `tributary start` process', () => {
  let db: TestDatabase;
  let proc: StartedProcess | undefined;
  let dataDir: string;
  beforeAll(async () => {
    db = await createTestDatabase();
    dataDir = await mkdtemp(join(tmpdir(), 'trib-metrics-'));
  });
  afterAll(async () => {
    if (proc && proc.child.exitCode === null) {
      proc.child.kill('SIGTERM');
      await proc.exited;
    }
    await db?.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  test('given METRICS_TOKEN and METRICS_PORT in the environment, then the token guards the own port, the public port has no /metrics, and the start says where', async () => {
    const reporting = startReporting({
      DATABASE_URL: db.url,
      TRIBUTARY_DATA_DIR: dataDir,
      METRICS_PORT: '0',
      METRICS_HOST: '127.0.0.1',
      METRICS_TOKEN: TOKEN,
      FEDERATION_SYNC: 'off',
    });
    proc = reporting;
    const { port, metricsPort } = await reporting.address();
    await ready(port!, proc);
    const line = await waitForLine(proc, 'metrics on their own port');
    assert.equal(line.metrics, `http://127.0.0.1:${metricsPort}`);
    const own = `http://127.0.0.1:${metricsPort}`;
    assert.equal((await scrape(own)).status, 401);
    const ok = await scrape(own, { authorization: `Bearer ${TOKEN}` });
    assert.equal(ok.status, 200);
    const samples = parseExposition(ok.text);
    // The readiness probes of `ready` are counted under their route.
    assert.ok(total(samples, 'tributary_http_requests_total', { route: '/readyz', status: '200' }) >= 1);
    assert.equal(
      (await scrape(`http://127.0.0.1:${port}`, { authorization: `Bearer ${TOKEN}` })).status,
      404,
    );
  });
});
