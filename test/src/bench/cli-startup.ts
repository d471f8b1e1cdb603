// Benchmark 18: how long an operator waits for a `tributary` command on the built output (infra/dist,
// what `npm ci` builds through the root `prepare` script; built again here first, so the bin does not
// fall back to the sources). Each run is a real process started as an operator starts it, through
// infra/bin/tributary.js. The baseline is the budget itself, one second: at least one run per second
// meets the target (the ratio is 1 ÷ the median seconds). A bare `node -e ''` is timed beside it, since
// most of a short command is Node starting.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { CLI_PATH } from '../harness/cli.js';
import { interleave, type BenchContext, type ResultRow } from './bench-kit.js';

const run = promisify(execFile);
const BUILD = fileURLToPath(new URL('../../../infra/scripts/build.mjs', import.meta.url));

const COMMANDS = [
  ['18', 'tributary --version', ['--version']],
  ['18a', 'tributary status', ['status']],
] as const;

export async function benchCliStartup(ctx: BenchContext): Promise<ResultRow[]> {
  await run(process.execPath, [BUILD]);
  const env = {
    ...process.env,
    DATABASE_URL: ctx.instance.config.DATABASE_URL ?? '',
    TRIBUTARY_DATA_DIR: ctx.instance.config.TRIBUTARY_DATA_DIR,
    INSTANCE_ROLE: ctx.instance.config.INSTANCE_ROLE,
  };
  const once = (args: readonly string[]) => async () => {
    await run(process.execPath, args, { env });
    return 1;
  };
  const results = await interleave(ctx, [
    ...COMMANDS.map(([, name, args]) => ({ name, run: once([CLI_PATH, ...args]) })),
    { name: "node -e ''", run: once(['-e', '']) },
  ]);
  const bare = 1000 / results.get("node -e ''")!.median;
  return COMMANDS.map(([id, name]) => {
    const r = results.get(name)!;
    const ms = 1000 / r.median;
    ctx.log(
      `    ${name}: median ${ms.toFixed(0)} ms, ${ms < 1000 ? 'under' : 'OVER'} one second (bare node start ${bare.toFixed(0)} ms)`,
    );
    return {
      name: `${id}. ${name} (built), runs/s vs 1 s`,
      unit: 'runs',
      subject: r.median,
      baseline: 1,
      target: 1,
      subjectRates: r.rates,
      baselineRates: r.rates.map(() => 1),
    };
  });
}
