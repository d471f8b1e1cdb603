// Federation import benchmark: 10,000 signed events imported in batches of 500 over HTTP,
// end to end (request signature, strict parse, event verification, dedup, agent binding, append,
// projections), against the best bare verification rate of the same events in the same run with cached
// keys: a `crypto.verify` loop, and `crypto.subtle.verify` with concurrency (the faster one is the
// baseline; both are reported). Target: subject ≥ 0.5 × baseline.
//
// Two real instances (their own databases, on loopback): A seals the events with its own key, B has A
// registered as a peer and imports. Each round imports fresh events (an import of the same ones would
// only be duplicates); the events of a round are 1 % agent.created and 99 % agent.profile_updated of
// those agents. Two batches are in flight, as a pushing peer could pipeline them: one from each of two
// lanes, each lane its own half of the agents in order, because a peer's stream must arrive in order
// (two batches touching one stream may be imported in either order, and the later version first would
// refuse the earlier one as federation.out_of_order).
//
// Needs TRIBUTARY_TEST_DATABASE_URL or DATABASE_URL (run-benchmarks sets it). BENCH_SCALE scales the
// event count, BENCH_ROUNDS the rounds (medians are reported).
import { signingInput } from '@tributary/infra';
import { createPublicKey, verify, webcrypto } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { clientOf, register, sealerOf, startNode } from '../federation/federation-helpers.js';
import { median, type ResultRow } from './bench-kit.js';

/** bench-kit's row, with the ratio, the target and which verification served as baseline. */
type FederationBenchRow = ResultRow & { ratio: number; target: number; note: string };

const BATCH = 500;
const IN_FLIGHT = 2;

export async function benchFederationImport(
  log: (line: string) => void = (l) => console.log(l),
  roundsGiven?: number,
): Promise<FederationBenchRow[]> {
  const scale = Number(process.env.BENCH_SCALE ?? 1) || 1;
  const rounds = Math.max(1, roundsGiven ?? (Number(process.env.BENCH_ROUNDS ?? 5) || 5));
  const total = Math.max(BATCH, Math.round(10_000 * scale));
  const [a, b] = await Promise.all([
    startNode('group', 'Bench origin'),
    startNode('global', 'Bench receiver'),
  ]);
  try {
    await register(b, a);
    const seal = sealerOf(a);
    const client = clientOf(a);
    /** One lane's events: its agents' creations, then their updates in turn, each stream in order. */
    const makeLane = (count: number) => {
      const agents = Math.max(1, Math.round(count / 100));
      const ids = Array.from({ length: agents }, () => crypto.randomUUID());
      const versions = new Map(ids.map((id) => [id, 1]));
      const out = ids.map((id) =>
        seal({
          type: 'agent.created',
          stream: `agent-${id}`,
          actorId: id,
          data: { agentId: id, kind: 'person', name: 'Bench' },
        }),
      );
      for (let i = out.length; i < count; i++) {
        const id = ids[i % agents]!;
        const v = versions.get(id)! + 1;
        versions.set(id, v);
        out.push(
          seal({
            type: 'agent.profile_updated',
            stream: `agent-${id}`,
            streamVersion: v,
            actorId: id,
            data: { bio: `update ${v} of ${id}` },
          }),
        );
      }
      return out;
    };
    const makeRound = () =>
      Array.from({ length: IN_FLIGHT }, (_, lane) =>
        makeLane(Math.floor(total / IN_FLIGHT) + (lane < total % IN_FLIGHT ? 1 : 0)),
      ).flat();

    const importRound = async (events: ReturnType<typeof makeRound>) => {
      const perLane = Math.ceil(events.length / IN_FLIGHT);
      let accepted = 0;
      await Promise.all(
        Array.from({ length: IN_FLIGHT }, async (_, lane) => {
          const mine = events.slice(lane * perLane, (lane + 1) * perLane);
          for (let i = 0; i < mine.length; i += BATCH) {
            const r = await client.importEvents(
              b.url,
              mine.slice(i, i + BATCH).map((e) => e.text),
            );
            accepted += r.accepted;
          }
        }),
      );
      if (accepted !== events.length)
        throw new Error(`only ${accepted} of ${events.length} events were accepted`);
    };

    // The baselines verify exactly the bytes a verifier must check, with the key cached.
    const keyObject = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: a.publicKey }, format: 'jwk' });
    const cryptoKey = await webcrypto.subtle.importKey(
      'raw',
      Buffer.from(a.publicKey, 'base64url'),
      { name: 'Ed25519' },
      false,
      ['verify'],
    );
    const prepared = (events: ReturnType<typeof makeRound>) =>
      events.map((e) => ({ input: signingInput(e.envelope), sig: Buffer.from(e.envelope.sig, 'base64url') }));
    const verifyLoop = (items: ReturnType<typeof prepared>) => {
      for (const it of items)
        if (!verify(null, it.input, keyObject, it.sig)) throw new Error('bad signature');
    };
    const subtleConcurrent = async (items: ReturnType<typeof prepared>) => {
      const CHUNK = 1000;
      for (let i = 0; i < items.length; i += CHUNK) {
        const ok = await Promise.all(
          items
            .slice(i, i + CHUNK)
            .map((it) => webcrypto.subtle.verify({ name: 'Ed25519' }, cryptoKey, it.sig, it.input)),
        );
        if (ok.includes(false)) throw new Error('bad signature');
      }
    };
    const rate = async (run: () => unknown) => {
      const t = performance.now();
      await run();
      return total / ((performance.now() - t) / 1000);
    };

    // Warm-up (untimed): JIT, connections, key caches.
    const warm = makeRound();
    await importRound(warm);
    verifyLoop(prepared(warm));
    await subtleConcurrent(prepared(warm));

    const subject: number[] = [];
    const loop: number[] = [];
    const subtle: number[] = [];
    for (let r = 0; r < rounds; r++) {
      const events = makeRound();
      const items = prepared(events);
      loop.push(await rate(() => verifyLoop(items)));
      subtle.push(await rate(() => subtleConcurrent(items)));
      subject.push(await rate(() => importRound(events)));
      await b.instance.instance.sequencer.drain();
    }
    const fmt = (xs: number[]) => xs.map((x) => Math.round(x).toLocaleString('en-US')).join(' ');
    log(`    federation import over HTTP    rounds ${fmt(subject)} events/s`);
    log(`    crypto.verify loop             rounds ${fmt(loop)} verifies/s`);
    log(`    crypto.subtle.verify ×1000     rounds ${fmt(subtle)} verifies/s`);
    const best =
      median(loop) >= median(subtle)
        ? { name: 'crypto.verify loop', rates: loop }
        : { name: 'crypto.subtle.verify concurrent', rates: subtle };
    const s = median(subject);
    const base = median(best.rates);
    return [
      {
        name: `federation import, ${total.toLocaleString('en-US')} events in batches of ${BATCH} over HTTP`,
        unit: 'events',
        subject: s,
        baseline: base,
        ratio: s / base,
        target: 0.5,
        subjectRates: subject,
        baselineRates: best.rates,
        note: `baseline: ${best.name} (crypto.verify ${Math.round(median(loop))}/s, subtle ${Math.round(median(subtle))}/s)`,
      },
    ];
  } finally {
    await Promise.all([a.instance.destroy(), b.instance.destroy()]);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = await benchFederationImport();
  for (const r of rows)
    console.log(
      `${r.name}: ${Math.round(r.subject)}/s vs ${Math.round(r.baseline)}/s = ${r.ratio.toFixed(2)}× (target ≥ ${r.target}×) — ${r.note}`,
    );
  process.exit(0);
}
