// `npm run bench`: the performance targets of the issues, as ratios measured side by side in
// one run on one database (never absolute times), with subject and baseline rounds interleaved.
//
//   DATABASE_URL / TRIBUTARY_TEST_DATABASE_URL  an admin URL on which a fresh database is created for
//                     the run (and dropped after); unset: a throwaway embedded PostgreSQL in a temp folder
//   BENCH_SCALE       multiplies every workload size (default 1; 0.25 for a quick look)
//   BENCH_ROUNDS      timed rounds per arm (default 5); each arm's rate is the median of its rounds (the
//                     machines are shared: five rounds' medians move far less from run to run than three)
//   BENCH_ONLY        comma-separated benchmark numbers or names to run (e.g. "1,3" or "feed")
//   BENCH_STRICT=1    exit non-zero when any target is missed (otherwise only errors do)
import { batchAppendBenchmark } from './batch-append.js';
import { openBenchEnvironment, type BenchEnvironment } from './bench-environment.js';
import { failed, fmtRate, formatTable, type BenchContext, type ResultRow } from './bench-kit.js';
import { feedReadBenchmark } from './feed-read.js';
import { benchFederationImport } from './federation-import.js';
import { benchFederationCatchUp } from './federation-catch-up.js';
import { benchFederationRelay } from './federation-relay.js';
import { benchMcpToolsCall } from './mcp-tools-call.js';
import { benchOAuthTokens } from './oauth-tokens.js';
import { logVerifyBenchmark } from './log-verify.js';
import { signedAppendBenchmark } from './signed-append.js';
import { benchSitePublish } from './site-publish.js';
import { benchSiteServing } from './site-serving.js';
import { benchAssistantPlanner } from './assistant-planner.js';
import { benchSpatialServing } from './spatial-serving.js';
import { benchSsoLanding } from './sso-landing.js';
import { benchAssistantConfirm } from './assistant-confirm.js';
import { benchPaymentsWebhook } from './payments-webhook.js';
import { benchScaleOut } from './scale-out.js';
import { benchCliStartup } from './cli-startup.js';

// In run order. The log check runs first, while the log holds only the 10k events it adds itself:
// verifyLog has no partial mode, so every one of its rounds is a pass over the whole log. The table is
// printed in benchmark-number order.
const BENCHMARKS: { id: string; name: string; run: (ctx: BenchContext) => Promise<ResultRow[]> }[] = [
  { id: '4', name: 'log-verify', run: logVerifyBenchmark },
  { id: '1', name: 'signed-append', run: signedAppendBenchmark },
  { id: '2', name: 'batch-append', run: batchAppendBenchmark },
  { id: '3', name: 'feed-read', run: feedReadBenchmark },
  // Agent access and federation: each starts instances of its own.
  {
    id: '5',
    name: 'mcp-tools-call',
    run: (ctx) => benchMcpToolsCall({ rounds: ctx.rounds, scale: ctx.scale, log: (l) => console.log(l) }),
  },
  {
    id: '6',
    name: 'federation-import',
    run: (ctx) => benchFederationImport((l) => console.log(l), ctx.rounds),
  },
  // A peer 100,000 events behind catching up by pull: events/s, and memory flat as the backlog grows.
  {
    id: '8',
    name: 'federation-catch-up',
    run: (ctx) => benchFederationCatchUp({ scale: ctx.scale, log: (l) => console.log(l) }),
  },
  // 10,000 events of one sovereign relayed to two others through the global instance, vs a direct pull.
  {
    id: '16',
    name: 'federation-relay',
    run: (ctx) => benchFederationRelay({ scale: ctx.scale, rounds: ctx.rounds, log: (l) => console.log(l) }),
  },
  // OAuth: refresh grants and /api/mcp calls with OAuth tokens vs directly issued ones.
  {
    id: '7',
    name: 'oauth-tokens',
    run: (ctx) => benchOAuthTokens({ rounds: ctx.rounds, scale: ctx.scale, log: (l) => console.log(l) }),
  },
  // Published sites: a page through the site server vs a bare node:http server with the same bytes.
  {
    id: '9',
    name: 'site-serving',
    run: (ctx) => benchSiteServing({ rounds: ctx.rounds, scale: ctx.scale, log: (l) => console.log(l) }),
  },
  // Publishing a site: a 200-page site against a 10-page one, per page; a 50-page site's latency.
  {
    id: '10',
    name: 'site-publish',
    run: (ctx) => benchSitePublish({ rounds: ctx.rounds, scale: ctx.scale, log: (l) => console.log(l) }),
  },
  // The assistant's built-in planner: its reply latency p50/p99 against a model replying over loopback (info).
  {
    id: '11',
    name: 'assistant-planner',
    run: (ctx) => benchAssistantPlanner({ rounds: ctx.rounds, scale: ctx.scale, log: (l) => console.log(l) }),
  },
  // Hosted worlds: GET /wow/spatial/<id> of a 1,000-node graph vs a bare node:http server with the same JSON.
  {
    id: '12',
    name: 'spatial-serving',
    run: (ctx) => benchSpatialServing({ rounds: ctx.rounds, scale: ctx.scale, log: (l) => console.log(l) }),
  },
  // Confirming a 10-write assistant plan against the same 10 commands through /api/ops (target ≤ 1.3×).
  {
    id: '13',
    name: 'assistant-confirm',
    run: (ctx) => benchAssistantConfirm({ rounds: ctx.rounds, scale: ctx.scale, log: (l) => console.log(l) }),
  },
  // Single sign-on: landing with an assertion (verify, burn the nonce, mint) beside a bare Ed25519 verify (info).
  {
    id: '14',
    name: 'sso-landing',
    run: (ctx) => benchSsoLanding({ rounds: ctx.rounds, scale: ctx.scale, log: (l) => console.log(l) }),
  },
  // Stripe webhook intake (verify, record once, answer) against a bare handler verifying the same signatures (target ≥ 0.5×).
  {
    id: '15',
    name: 'payments-webhook',
    run: (ctx) => benchPaymentsWebhook({ rounds: ctx.rounds, scale: ctx.scale, log: (l) => console.log(l) }),
  },
  // Writes through three API processes (real `tributary start --role api`) vs one, same processes (info).
  { id: '17', name: 'scale-out', run: benchScaleOut },
  // The operator's command on the built output: `tributary --version` and `status` within one second.
  { id: '18', name: 'cli-startup', run: benchCliStartup },
];

let environment: BenchEnvironment | undefined;

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.error(`\n[bench] ${signal}: cleaning up`);
    void (environment?.close() ?? Promise.resolve()).finally(() => process.exit(130));
  });
}

function numberFromEnv(name: string, fallback: number, valid: (n: number) => boolean): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const n = Number(raw);
  if (!valid(n)) throw new Error(`${name}=${raw} is not valid`);
  return n;
}

const log = (line: string) => console.log(line);

async function main(): Promise<number> {
  const started = Date.now();
  const scale = numberFromEnv('BENCH_SCALE', 1, (n) => Number.isFinite(n) && n > 0);
  const rounds = numberFromEnv('BENCH_ROUNDS', 5, (n) => Number.isInteger(n) && n >= 1);
  const only = (process.env.BENCH_ONLY ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const selected = BENCHMARKS.filter(
    (b) => only.length === 0 || only.some((o) => o === b.id || b.name.includes(o)),
  );
  if (selected.length === 0) throw new Error(`BENCH_ONLY=${process.env.BENCH_ONLY} matches no benchmark`);

  environment = await openBenchEnvironment({ scale, rounds, log });
  const { ctx } = environment;
  log(`[bench] ${await environment.describe()}`);
  log(`[bench] BENCH_SCALE=${scale} BENCH_ROUNDS=${rounds}; arms interleaved, rates are medians of rounds`);

  const rows: (ResultRow & { order: string })[] = [];
  const errors: string[] = [];
  for (const bench of selected) {
    const t = Date.now();
    log(`\n[bench] ${bench.id}. ${bench.name}`);
    try {
      rows.push(...(await bench.run(ctx)).map((r, i) => ({ ...r, order: `${bench.id}.${i}` })));
    } catch (error) {
      errors.push(`${bench.id}. ${bench.name}: ${(error as Error).stack ?? String(error)}`);
      console.error(`[bench] ${bench.name} failed: ${(error as Error).message}`);
    }
    log(`    (${((Date.now() - t) / 1000).toFixed(1)}s)`);
  }

  rows.sort((a, b) => a.order.localeCompare(b.order));
  log('');
  log(formatTable(rows));
  log('');
  for (const r of rows)
    log(
      `  ${r.name}: subject rounds ${r.subjectRates.map(fmtRate).join(' / ')}; ` +
        `baseline rounds ${r.baselineRates.map(fmtRate).join(' / ')}`,
    );
  const misses = rows.filter(failed);
  log(
    `\n[bench] ${misses.length} of ${rows.filter((r) => r.target !== undefined).length} targets missed; ` +
      `${errors.length} errors; ${((Date.now() - started) / 1000).toFixed(0)}s in all`,
  );
  for (const e of errors) console.error(`[bench] ERROR ${e}`);
  if (errors.length > 0) return 1;
  if (misses.length > 0 && process.env.BENCH_STRICT === '1') return 1;
  return 0;
}

let code = 1;
try {
  code = await main();
} catch (error) {
  console.error(`[bench] ${(error as Error).stack ?? String(error)}`);
} finally {
  await environment?.close();
}
process.exit(code);
