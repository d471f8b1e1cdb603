// Benchmark 17 (info): writes through three API processes against one, same run, same processes.
//
// One instance runs as real processes on a fresh database (docs/operations.md#process-roles): three
// `tributary start --role api` and one `--role worker` (the sequencer and async projections, so what is
// written is also numbered and folded, as in production). CLIENTS keep-alive clients, each signed in
// as its own account (its own stream: no conflicts between them), send `svc.profile.update` through
// /api/ops. Subject: client c sends to API process c mod 3. Baseline: every client sends to the first
// API process. Everything else — the processes, the database, the clients — is the same in both arms,
// alternating round by round, and the worker's backlog is drained between rounds.
//
// On a 2-core machine this is not a speed-up measurement: one API process already has the second core
// for PostgreSQL, so three API processes compete for the same two cores with PostgreSQL, the worker and
// the client; the ratio shows what spreading writes over processes costs (more connections, less
// batching per process, cross-process stream caches that must read what the others appended). With a
// core per API process (and PostgreSQL on its own machine) the subject is where the gain would show.
import { createTestDatabase } from '@tributary/test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import {
  ready,
  startProcess,
  startReporting,
  waitForLine,
  type StartedProcess,
} from '../e2e/start-helpers.js';
import { concurrently, interleave, row, scaled, type BenchContext, type ResultRow } from './bench-kit.js';

const CLIENTS = 12;
const API_PROCESSES = 3;

export async function benchScaleOut(ctx: BenchContext): Promise<ResultRow[]> {
  const perRound = scaled(ctx, 1200, CLIENTS * 10);
  const db = await createTestDatabase();
  const dataDir = await mkdtemp(join(tmpdir(), 'trib-bench-scale-'));
  const procs: StartedProcess[] = [];
  const pool = new pg.Pool({ connectionString: db.url, max: 2 });
  pool.on('error', () => undefined);
  try {
    const env = {
      NODE_ENV: 'production',
      DATABASE_URL: db.url,
      TRIBUTARY_DATA_DIR: dataDir,
      INSTANCE_ROLE: 'group',
      INSTANCE_NAME: 'Bench',
      LOG_LEVEL: 'info', // the ready lines are at info; access lines are cheap beside a signed append
      FEDERATION_SYNC: 'off',
      RATE_LIMIT_REGISTRATION: '1000/min',
    };
    // Each on a port the kernel picks, reported once it listens; all share the first one's BASE_URL.
    const ports: number[] = [];
    const api = async (i: number, shared: Record<string, string>) => {
      const p = startReporting({ ...env, ...shared }, { args: ['--role', 'api'] });
      procs.push(p);
      const a = await p.address();
      ports[i] = a.port!;
      await ready(a.port!, p);
      return a;
    };
    // The first creates the instance, the others (and the worker) join it.
    const first = await api(0, {});
    const shared = { BASE_URL: first.baseUrl! };
    const worker = startProcess({ ...env, ...shared }, { args: ['--role', 'worker'] });
    procs.push(worker);
    await Promise.all([
      ...Array.from({ length: API_PROCESSES - 1 }, (_, i) => api(i + 1, shared)),
      waitForLine(worker, 'tributary worker is ready', 120_000),
    ]);

    // One account per client, signed up through the API process it writes to in the subject arm.
    const cookies: string[] = [];
    for (let c = 0; c < CLIENTS; c++) {
      const r = await fetch(`http://127.0.0.1:${ports[c % API_PROCESSES]}/api/auth/signup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ handle: `bench_${c}`, password: 'correct horse battery staple' }),
      });
      if (r.status !== 201) throw new Error(`signup: ${r.status} ${await r.text()}`);
      cookies.push(r.headers.getSetCookie()[0]!.split(';')[0]!);
    }

    let n = 0;
    const writes = (target: (client: number) => number) => async () => {
      let left = perRound;
      await concurrently(CLIENTS, async (c) => {
        const url = `http://127.0.0.1:${ports[target(c)]}/api/ops/svc.profile.update`;
        while (left > 0) {
          left--;
          const r = await fetch(url, {
            method: 'POST',
            headers: { 'content-type': 'application/json', cookie: cookies[c]! },
            body: JSON.stringify({ bio: `round write ${++n}` }),
          });
          if (r.status !== 201) throw new Error(`svc.profile.update: ${r.status} ${await r.text()}`);
          await r.arrayBuffer();
        }
      });
      return perRound;
    };
    // Between rounds the worker numbers and folds what the round wrote, so no arm pays for the other.
    const settle = async () => {
      const until = Date.now() + 120_000;
      for (;;) {
        const { rows } = await pool.query<{ behind: boolean }>(
          `SELECT (SELECT count(*) FROM events) > (SELECT count(*) FROM event_sequence)
               OR EXISTS (SELECT 1 FROM projection_checkpoints
                          WHERE seq < (SELECT last_seq FROM sequencer_state)) AS behind`,
        );
        if (!rows[0]!.behind) return;
        if (Date.now() > until) throw new Error('the worker did not catch up in time');
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    const results = await interleave({ ...ctx, settle }, [
      { name: `${API_PROCESSES} API processes, ${CLIENTS} clients`, run: writes((c) => c % API_PROCESSES) },
      { name: `1 API process, ${CLIENTS} clients`, run: writes(() => 0) },
    ]);
    return [
      row(
        `17. writes (svc.profile.update), ${API_PROCESSES} API processes vs 1, 2 cores (info)`,
        'writes',
        results.get(`${API_PROCESSES} API processes, ${CLIENTS} clients`)!,
        results.get(`1 API process, ${CLIENTS} clients`)!,
      ),
    ];
  } finally {
    for (const p of procs) p.child.kill('SIGTERM');
    await Promise.all(procs.map((p) => p.exited));
    await pool.end();
    await db.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
}
