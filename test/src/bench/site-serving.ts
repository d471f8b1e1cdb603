// Benchmark: serving a published page, against a bare node:http server answering the same bytes.
//
//   subject  — GET / with `Host: <label>.<SITES_DOMAIN>` on a running instance: the site server in front
//              of the application (host → site in memory, manifest lookup, the LRU of bytes, the strict
//              headers, ETag), for a page published through svc.builder.publish at a claimed address;
//   baseline — a bare `node:http` server in the same process answering the same bytes from memory with
//              only Content-Type and Content-Length.
//
// Client: one child process (http-load-client.ts), the same for both arms, with 10 keep-alive
// connections each carrying one request at a time; it checks every answer (200, the page's length).
// Arms alternate (A B A B …); each arm's rate is the median of its rounds; p50/p99 over sampled requests.
//
//   benchSiteServing(options?) → Promise<SiteServingRow[]>
import { browser, startTestInstance } from '@tributary/test';
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { median, type ResultRow } from './bench-kit.js';
import type { LoadCommand, LoadResult } from './http-load-client.js';

export const SITE_SERVING_TARGET = 0.5;
const CONNECTIONS = 10;
const LABEL = 'benchsite';

export type SiteServingRow = ResultRow & {
  ratio: number;
  target: number;
  latencyMs: { subject: { p50: number; p99: number }; baseline: { p50: number; p99: number } };
  note: string;
};

export interface SiteServingOptions {
  rounds?: number;
  scale?: number;
  log?: (line: string) => void;
}

const percentile = (sorted: readonly number[], p: number) =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

function getPage(port: number, host: string): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: '/', headers: { host } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, body: Buffer.concat(chunks) }));
      })
      .on('error', reject);
  });
}

function load(child: ChildProcess, command: LoadCommand): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    child.once('message', (m: { ok: boolean; result?: LoadResult; error?: string }) =>
      m.ok ? resolve(m.result!) : reject(new Error(`load client: ${m.error}`)),
    );
    child.send(command);
  });
}

export async function benchSiteServing(options: SiteServingOptions = {}): Promise<SiteServingRow[]> {
  const rounds = options.rounds ?? 5;
  const requests = Math.max(2000, Math.round(20_000 * (options.scale ?? 1)));
  const log = options.log ?? (() => undefined);

  const instance = await startTestInstance();
  let bare: http.Server | undefined;
  let child: ChildProcess | undefined;
  try {
    // Setup (untimed): a person publishes their default site and claims an address for it.
    const person = browser(instance.url);
    const signedUp = await person.post('/api/auth/signup', {
      handle: 'bench',
      password: 'benchmark password',
    });
    if (signedUp.status !== 201) throw new Error(`sign-up failed: ${signedUp.text}`);
    const published = await person.post('/api/ops/svc.builder.publish', {});
    if (published.status !== 201) throw new Error(`publish failed: ${published.text}`);
    const claimed = await person.post('/api/builder/address', { label: LABEL });
    if (claimed.status !== 201 && claimed.status !== 200) throw new Error(`claim failed: ${claimed.text}`);
    const host = `${LABEL}.${instance.instance.config.SITES_DOMAIN}`;
    const sitePort = Number(new URL(instance.url).port);
    await instance.sites.refresh(null);
    const page = await getPage(sitePort, host);
    if (page.status !== 200) throw new Error(`the published page answers ${page.status}`);

    bare = http.createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': page.body.length });
      res.end(page.body);
    });
    bare.keepAliveTimeout = 60_000;
    bare.listen(0, '127.0.0.1');
    await once(bare, 'listening');
    const barePort = (bare.address() as AddressInfo).port;

    child = fork(fileURLToPath(new URL('./http-load-client.ts', import.meta.url)), {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const arms = {
      subject: { port: sitePort, host, rates: [] as number[], latencies: [] as number[] },
      baseline: { port: barePort, host: '127.0.0.1', rates: [] as number[], latencies: [] as number[] },
    };
    const round = async (arm: typeof arms.subject, n: number, timed: boolean) => {
      const r = await load(child!, {
        port: arm.port,
        host: arm.host,
        path: '/',
        requests: n,
        connections: CONNECTIONS,
        expectLength: page.body.length,
      });
      if (!timed) return;
      arm.rates.push(r.requests / (r.ms / 1000));
      arm.latencies.push(...r.latenciesMs);
    };
    await round(arms.subject, Math.ceil(requests / 4), false);
    await round(arms.baseline, Math.ceil(requests / 4), false);
    for (let i = 0; i < rounds; i++) {
      await round(arms.subject, requests, true);
      await round(arms.baseline, requests, true);
    }

    const lat = (arm: typeof arms.subject) => {
      const sorted = [...arm.latencies].sort((a, b) => a - b);
      return { p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
    };
    const row: SiteServingRow = {
      name: 'site page, site server vs bare node:http',
      unit: 'req',
      subject: median(arms.subject.rates),
      baseline: median(arms.baseline.rates),
      ratio: median(arms.subject.rates) / median(arms.baseline.rates),
      target: SITE_SERVING_TARGET,
      subjectRates: arms.subject.rates,
      baselineRates: arms.baseline.rates,
      latencyMs: { subject: lat(arms.subject), baseline: lat(arms.baseline) },
      note: '',
    };
    const ms = (n: number) => n.toFixed(2);
    row.note =
      `${CONNECTIONS} keep-alive connections, ${page.body.length}-byte page; p50/p99 ` +
      `${ms(row.latencyMs.subject.p50)}/${ms(row.latencyMs.subject.p99)} ms vs ` +
      `${ms(row.latencyMs.baseline.p50)}/${ms(row.latencyMs.baseline.p99)} ms`;
    log(
      `    subject ${Math.round(row.subject)} req/s, baseline ${Math.round(row.baseline)} req/s, ratio ` +
        `${row.ratio.toFixed(2)} (target ≥ ${SITE_SERVING_TARGET}); ${row.note}`,
    );
    return [row];
  } finally {
    child?.kill();
    if (bare) {
      bare.closeAllConnections();
      await new Promise((r) => bare!.close(r));
    }
    await instance.destroy();
  }
}

// Run on its own: `node --import tsx test/src/bench/site-serving.ts`.
if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = await benchSiteServing({
    rounds: Number(process.env.BENCH_ROUNDS ?? 5),
    scale: Number(process.env.BENCH_SCALE ?? 1),
    log: (l) => console.log(l),
  });
  console.log(JSON.stringify(rows, null, 2));
}
