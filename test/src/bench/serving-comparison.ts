// What the serving benchmarks share: a bare node:http server answering fixed bytes from memory (the
// baseline), and the side-by-side measurement of a subject against it through one load-client child
// process (http-load-client.ts): arms alternate (A B A B …) after one untimed warm-up round each; each
// arm's rate is the median of its rounds; p50/p99 over the sampled requests.
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { median, type ResultRow } from './bench-kit.js';
import type { LoadCommand, LoadResult } from './http-load-client.js';

export type ServingRow = ResultRow & {
  ratio: number;
  target: number;
  latencyMs: { subject: { p50: number; p99: number }; baseline: { p50: number; p99: number } };
  note: string;
};

/** Where one arm sends its requests. */
export interface ServingArm {
  port: number;
  /** The Host header (and the address is always 127.0.0.1). */
  host: string;
  path: string;
}

const CONNECTIONS = 10;

const percentile = (sorted: readonly number[], p: number) =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/** One GET on loopback, its status and whole body. */
export function getBody(
  port: number,
  path: string,
  host?: string,
): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path, ...(host && { headers: { host } }) }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, body: Buffer.concat(chunks) }));
      })
      .on('error', reject);
  });
}

/** The baseline: the same bytes from memory, with only Content-Type and Content-Length. */
export async function startBareServer(
  body: Buffer,
  contentType: string,
): Promise<{ port: number; close(): Promise<void> }> {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': contentType, 'Content-Length': body.length });
    res.end(body);
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    port: (server.address() as AddressInfo).port,
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

function load(child: ChildProcess, command: LoadCommand): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    child.once('message', (m: { ok: boolean; result?: LoadResult; error?: string }) =>
      m.ok ? resolve(m.result!) : reject(new Error(`load client: ${m.error}`)),
    );
    child.send(command);
  });
}

export interface ServingComparison {
  name: string;
  subject: ServingArm;
  baseline: ServingArm;
  /** Requests per timed round (each arm); the warm-up round is a quarter of it. */
  requests: number;
  rounds: number;
  /** Every answer must be 200 with this many bytes. */
  expectLength: number;
  target: number;
  /** What is served, for the note: e.g. "page", "graph". */
  what: string;
  log: (line: string) => void;
}

export async function compareServing(c: ServingComparison): Promise<ServingRow> {
  const child = fork(fileURLToPath(new URL('./http-load-client.ts', import.meta.url)), {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  try {
    const arms = {
      subject: { ...c.subject, rates: [] as number[], latencies: [] as number[] },
      baseline: { ...c.baseline, rates: [] as number[], latencies: [] as number[] },
    };
    const round = async (arm: typeof arms.subject, n: number, timed: boolean) => {
      const r = await load(child, {
        port: arm.port,
        host: arm.host,
        path: arm.path,
        requests: n,
        connections: CONNECTIONS,
        expectLength: c.expectLength,
      });
      if (!timed) return;
      arm.rates.push(r.requests / (r.ms / 1000));
      arm.latencies.push(...r.latenciesMs);
    };
    await round(arms.subject, Math.ceil(c.requests / 4), false);
    await round(arms.baseline, Math.ceil(c.requests / 4), false);
    for (let i = 0; i < c.rounds; i++) {
      await round(arms.subject, c.requests, true);
      await round(arms.baseline, c.requests, true);
    }
    const lat = (arm: typeof arms.subject) => {
      const sorted = [...arm.latencies].sort((a, b) => a - b);
      return { p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
    };
    const latencyMs = { subject: lat(arms.subject), baseline: lat(arms.baseline) };
    const ms = (n: number) => n.toFixed(2);
    const row: ServingRow = {
      name: c.name,
      unit: 'req',
      subject: median(arms.subject.rates),
      baseline: median(arms.baseline.rates),
      ratio: median(arms.subject.rates) / median(arms.baseline.rates),
      target: c.target,
      subjectRates: arms.subject.rates,
      baselineRates: arms.baseline.rates,
      latencyMs,
      note:
        `${CONNECTIONS} keep-alive connections, ${c.expectLength}-byte ${c.what}; p50/p99 ` +
        `${ms(latencyMs.subject.p50)}/${ms(latencyMs.subject.p99)} ms vs ` +
        `${ms(latencyMs.baseline.p50)}/${ms(latencyMs.baseline.p99)} ms`,
    };
    c.log(
      `    subject ${Math.round(row.subject)} req/s, baseline ${Math.round(row.baseline)} req/s, ratio ` +
        `${row.ratio.toFixed(2)} (target ≥ ${c.target}); ${row.note}`,
    );
    return row;
  } finally {
    child.kill();
  }
}
