// Benchmark 14: landing with a single-sign-on assertion (docs/sso.md#verification) — verify it in the
// stated order, burn its nonce on its own stream (one append) and mint the remote-viewer credential
// (one insert) — beside a bare Ed25519 verification of the same claims in the same run. Information,
// not a target: this path runs once per visit, not per request.
//
//   subject  — `svc.sso.accept_assertion` through the pipeline on a group instance, for assertions the
//              global instance issued beforehand (untimed), each used once;
//   baseline — node:crypto's Ed25519 verify of the canonical claims under the global instance's key.
//
// Both arms run in this process, alternately (A B A B …); each arm's rate is the median of its rounds;
// p50/p99 over every call.
//
//   benchSsoLanding(options?) → Promise<ResultRow[]>
import { canonicalJson } from '@tributary/infra';
import { acceptAssertion, execute, issueAssertion, type Services } from '@tributary/services';
import { createPublicKey, verify } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { clientOf, ownEvents, register, startNode, type Node } from '../federation/federation-helpers.js';
import { median, type ResultRow } from './bench-kit.js';

export interface SsoLandingOptions {
  rounds?: number;
  scale?: number;
  log?: (line: string) => void;
}

const percentile = (sorted: readonly number[], p: number) =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

const ANONYMOUS = { kind: 'anonymous' } as const;

export async function benchSsoLanding(options: SsoLandingOptions = {}): Promise<ResultRow[]> {
  const rounds = options.rounds ?? 5;
  const perRound = Math.max(10, Math.round(50 * (options.scale ?? 1)));
  const log = options.log ?? (() => undefined);
  const env = { FEDERATION_SYNC: 'off', RATE_LIMIT_SSO: 'off' };
  let g: Node | undefined;
  let r: Node | undefined;
  try {
    [g, r] = await Promise.all([startNode('global', 'Global', env), startNode('group', 'Riverside', env)]);
    await register(g, r);
    await register(r, g);
    const password = 'benchmark password';
    const signedUp = await fetch(`${g.url}/api/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ handle: 'ada', password, name: 'Ada' }),
    });
    if (signedUp.status !== 201) throw new Error(`sign-up failed: ${await signedUp.text()}`);
    // The group instance learns Ada's agent as the sync would bring it: the global instance's feed, signed.
    await clientOf(g).importEvents(r.url, await ownEvents(g));

    const gs: Services = g.instance.instance.services;
    const rs: Services = r.instance.instance.services;
    const total = perRound * (rounds + 1);
    const assertions: string[] = [];
    for (let i = 0; i < total; i++) {
      const { result } = await execute(
        gs,
        issueAssertion,
        { identifier: 'ada', password, audience: r.url },
        ANONYMOUS,
        'http',
      );
      assertions.push(result.assertion);
    }
    const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: g.publicKey }, format: 'jwk' });
    const decoded = assertions.map((a) => {
      const parsed = JSON.parse(Buffer.from(a, 'base64url').toString('utf8')) as {
        claims: Record<string, unknown>;
        signature: { value: string };
      };
      return { claims: parsed.claims, sig: Buffer.from(parsed.signature.value, 'base64url') };
    });

    let next = 0;
    const times = { landing: [] as number[], verify: [] as number[] };
    const rates = { landing: [] as number[], verify: [] as number[] };
    const arms = {
      async landing(record: boolean) {
        const batch = assertions.slice(next, next + perRound);
        next += perRound;
        const started = performance.now();
        for (const assertion of batch) {
          const t = performance.now();
          await execute(rs, acceptAssertion, { assertion }, ANONYMOUS, 'http');
          if (record) times.landing.push(performance.now() - t);
        }
        return performance.now() - started;
      },
      async verify(record: boolean) {
        const started = performance.now();
        for (let i = 0; i < perRound; i++) {
          const t = performance.now();
          const { claims, sig } = decoded[i]!;
          if (!verify(null, Buffer.from(canonicalJson(claims), 'utf8'), key, sig))
            throw new Error('the bare verification failed');
          if (record) times.verify.push(performance.now() - t);
        }
        return performance.now() - started;
      },
    } as const;
    await arms.landing(false); // warm-up, untimed
    await arms.verify(false);
    for (let round = 0; round < rounds; round++)
      for (const arm of round % 2 === 0
        ? (['landing', 'verify'] as const)
        : (['verify', 'landing'] as const)) {
        const ms = await arms[arm](true);
        rates[arm].push(perRound / (ms / 1000));
      }
    const stats = (arm: 'landing' | 'verify') => {
      const sorted = [...times[arm]].sort((a, b) => a - b);
      return { p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
    };
    const l = stats('landing');
    const v = stats('verify');
    const ms = (x: number) => (x < 1 ? x.toFixed(3) : x.toFixed(2));
    log(
      `    landing with an assertion (verify, burn the nonce, mint): p50 ${ms(l.p50)} ms, p99 ${ms(l.p99)} ms; ` +
        `bare Ed25519 verification: p50 ${ms(v.p50)} ms, p99 ${ms(v.p99)} ms`,
    );
    return [
      {
        name: `SSO landing (p50 ${ms(l.p50)} / p99 ${ms(l.p99)} ms) vs bare Ed25519 verify (p50 ${ms(v.p50)} / p99 ${ms(v.p99)} ms)`,
        unit: 'landing',
        subject: median(rates.landing),
        baseline: median(rates.verify),
        subjectRates: rates.landing,
        baselineRates: rates.verify,
      },
    ];
  } finally {
    await Promise.all([g?.instance.destroy(), r?.instance.destroy()]);
  }
}

// Run on its own: `node --import tsx test/src/bench/sso-landing.ts`.
if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = await benchSsoLanding({
    rounds: Number(process.env.BENCH_ROUNDS ?? 5),
    scale: Number(process.env.BENCH_SCALE ?? 1),
    log: (l) => console.log(l),
  });
  console.log(JSON.stringify(rows, null, 2));
}
