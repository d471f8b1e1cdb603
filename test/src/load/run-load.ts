// `npm run load`: the federation load run (federation-load.ts), its knobs from the environment
// (docs/scaling.md#the-load-run). Needs DATABASE_URL (a PostgreSQL server it may create databases on).
import { formatLoad, LOAD_DEFAULTS, runFederationLoad } from './federation-load.js';

function knob(name: string, fallback: number, min: number, max: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const v = Number(raw);
  if (!Number.isFinite(v) || v < min || v > max) {
    console.error(`${name} must be a number from ${min} to ${max} (got ${raw})`);
    process.exit(2);
  }
  return v;
}

const ns = (process.env.LOAD_N ?? String(LOAD_DEFAULTS.n)).split(',').map((x) => x.trim());
const options = {
  rate: knob('LOAD_RATE', LOAD_DEFAULTS.rate, 0.01, 100),
  seconds: knob('LOAD_SECONDS', LOAD_DEFAULTS.seconds, 5, 1800),
  drainSeconds: knob('LOAD_DRAIN_SECONDS', LOAD_DEFAULTS.drainSeconds, 5, 1800),
  followShare: knob('LOAD_FOLLOW_SHARE', LOAD_DEFAULTS.followShare, 0.01, 1),
  pullIntervalSeconds: knob('LOAD_PULL_INTERVAL_SECONDS', LOAD_DEFAULTS.pullIntervalSeconds, 1, 3600),
  log: (line: string) => console.log(line),
};
let failed = false;
for (const raw of ns) {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 10_000) {
    console.error(`LOAD_N must be whole numbers from 1 to 10000, comma-separated (got ${raw})`);
    process.exit(2);
  }
  console.log(`federation load run: N = ${n}`);
  const r = await runFederationLoad({ ...options, n });
  for (const line of formatLoad(r)) console.log(line);
  failed ||= r.errors > 0 || r.rejected > 0 || r.verify.some((v) => !v.ok);
}
process.exit(failed ? 1 : 0);
