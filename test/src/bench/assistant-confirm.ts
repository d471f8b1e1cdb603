// Benchmark 13: confirming an assistant plan of 10 writes (POST /api/autobot/confirm: the confirmation,
// then each step through the pipeline with its provenance entry and the plan's record of it in the same
// append) against the same 10 commands sent directly, one request each, to /api/ops (each with no
// provenance entry: a session's call is not an MCP call). Target: the plan costs at most 1.3× the
// direct commands, i.e. its rate is ≥ 1/1.3 of theirs. p50 and p99 of both arms' latency (all 10 writes)
// are printed. The plan is proposed beforehand (untimed), as the chat turn loop would.
//
//   benchAssistantConfirm(options?) → Promise<ResultRow[]>
import { browser, proposeTestPlan, startTestInstance } from '@tributary/test';
import { performance } from 'node:perf_hooks';
import { median, type ResultRow } from './bench-kit.js';

export const CONFIRM_OVERHEAD_TARGET = 1 / 1.3;
const STEPS = 10;

export interface AssistantConfirmOptions {
  rounds?: number;
  scale?: number;
  log?: (line: string) => void;
}

const percentile = (sorted: readonly number[], p: number) =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

export async function benchAssistantConfirm(options: AssistantConfirmOptions = {}): Promise<ResultRow[]> {
  const rounds = options.rounds ?? 5;
  /** 10-write batches per arm per round. */
  const perRound = Math.max(2, Math.round(8 * (options.scale ?? 1)));
  const log = options.log ?? (() => undefined);
  const instance = await startTestInstance();
  try {
    const person = browser(instance.url);
    const signedUp = await person.post('/api/auth/signup', {
      handle: 'bench',
      password: 'benchmark password',
    });
    if (signedUp.status !== 201) throw new Error(`sign-up failed: ${signedUp.text}`);
    const who = { accountId: signedUp.json.accountId as string, agentId: signedUp.json.agentId as string };
    let n = 0;
    // Every write changes the bio, so every one of them appends (an unchanged field writes nothing).
    const args = () => ({ bio: `bench bio ${++n}` });

    const planOnce = async (): Promise<number> => {
      const plan = await proposeTestPlan(instance.instance.services, who, {
        text: 'ten profile updates',
        steps: Array.from({ length: STEPS }, () => ({ tool: 'svc.profile.update', args: args() })),
      });
      const started = performance.now();
      const r = await person.post('/api/autobot/confirm', { planHash: plan.hash });
      const ms = performance.now() - started;
      if (r.status !== 200 || r.json.result.status !== 'completed')
        throw new Error(`confirm failed: ${r.text}`);
      return ms;
    };
    const directOnce = async (): Promise<number> => {
      const started = performance.now();
      for (let i = 0; i < STEPS; i++) {
        const r = await person.post('/api/ops/svc.profile.update', args());
        if (r.status !== 200 && r.status !== 201) throw new Error(`svc.profile.update failed: ${r.text}`);
      }
      return performance.now() - started;
    };

    const arms = { plan: planOnce, direct: directOnce } as const;
    const times = { plan: [] as number[], direct: [] as number[] };
    const rates = { plan: [] as number[], direct: [] as number[] };
    for (const arm of ['plan', 'direct'] as const) await arms[arm](); // warm-up, untimed
    for (let round = 0; round < rounds; round++) {
      for (const arm of round % 2 === 0 ? (['plan', 'direct'] as const) : (['direct', 'plan'] as const)) {
        let total = 0;
        for (let i = 0; i < perRound; i++) {
          const ms = await arms[arm]();
          times[arm].push(ms);
          total += ms;
        }
        rates[arm].push(perRound / (total / 1000));
      }
    }
    const ms = (v: number) => v.toFixed(1);
    const stats = (arm: 'plan' | 'direct') => {
      const sorted = [...times[arm]].sort((a, b) => a - b);
      return { p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
    };
    const p = stats('plan');
    const d = stats('direct');
    log(
      `    10 writes confirmed as a plan: p50 ${ms(p.p50)} ms, p99 ${ms(p.p99)} ms; ` +
        `the same 10 through /api/ops: p50 ${ms(d.p50)} ms, p99 ${ms(d.p99)} ms; ` +
        `overhead p50 ${(p.p50 / d.p50).toFixed(2)}×, p99 ${(p.p99 / d.p99).toFixed(2)}× (target ≤ 1.3×)`,
    );
    return [
      {
        name: `confirm a 10-write plan (p50 ${ms(p.p50)} / p99 ${ms(p.p99)} ms) vs 10 /api/ops calls (p50 ${ms(d.p50)} / p99 ${ms(d.p99)} ms)`,
        unit: 'batch',
        subject: median(rates.plan),
        baseline: median(rates.direct),
        target: CONFIRM_OVERHEAD_TARGET,
        subjectRates: rates.plan,
        baselineRates: rates.direct,
      },
    ];
  } finally {
    await instance.destroy();
  }
}

// Run on its own: `node --import tsx test/src/bench/assistant-confirm.ts`.
if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = await benchAssistantConfirm({
    rounds: Number(process.env.BENCH_ROUNDS ?? 5),
    scale: Number(process.env.BENCH_SCALE ?? 1),
    log: (l) => console.log(l),
  });
  console.log(JSON.stringify(rows, null, 2));
}
