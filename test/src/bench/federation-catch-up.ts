// Feed catch-up benchmark: a peer 100,000 events behind catches up through the real pull path
// (signed export request → the origin's feed → split on the bytes received → import: verify, dedup,
// materialize, append, projections), one page after another as the sync runner does. Reported: events/s,
// and the peak heap growth during the catch-up for a 10,000- and a 100,000-event backlog — memory must
// stay flat as the backlog grows (the pull holds one page at a time), so the row's ratio is
// peak(10k) ÷ peak(100k) of the live heap, target ≥ 0.67 (the larger backlog may keep at most 1.5× the
// smaller's). Peak heap including garbage and peak RSS are printed too.
//
// Rate and memory are measured in separate catch-ups. The memory probe is a full GC after every page
// (`npm run bench` runs node with --expose-gc), which the sync runner never runs; leaving its pause out
// of the clock is not enough, because V8 finishes each forced collection on its helper threads after the
// pause (on two cores, ~70% of one core during a probed catch-up, measured per thread), which the
// catch-up then competes with. So the rate comes from catch-ups without the probe, the live heap from
// catch-ups with it.
// The rate is compared with a bare `crypto.verify` loop over the same events: issue 24 asks for at least
// 0.5× of it at 100,000 behind. The loop runs before each timed catch-up and after the last; the median
// of the three is the baseline (the host's speed drifts over a minute-long run).
//
// The origin A holds the backlog (agent.created of new agents, appended untimed through its store); each
// catch-up is run by a fresh receiver whose pull cursor is placed that many events before A's head. A is
// filled in this process, then runs the catch-ups as its own `tributary start` process on the same
// database and data folder, as an origin is another machine in production: its export work does not
// share the receiver's event loop, and the heap measured here is the receiver's alone.
import { composedFor, federationComposed, syncPeer } from '@tributary/services';
import { signingInput } from '@tributary/infra';
import { browser } from '@tributary/test';
import { createPublicKey, verify } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { performance } from 'node:perf_hooks';
import { ready, startProcess, type StartedProcess } from '../e2e/start-helpers.js';
import { password, register, startNode, type Node } from '../federation/federation-helpers.js';
import { cpuPer, cpuReading } from './proc-cpu.js';
import { appendNewAgents, median, type ResultRow } from './bench-kit.js';

type CatchUpRow = ResultRow & { note: string };

/** Issue 24 item 6: catch-up at least half the rate of a bare verify loop over the same events. */
export const CATCH_UP_TARGET = 0.5;
const settings = { retryBaseMs: 1000, pullIntervalMs: 60_000 };

export async function benchFederationCatchUp(o: {
  scale: number;
  log: (line: string) => void;
}): Promise<CatchUpRow[]> {
  // Without it the memory row would compare nothing and pass.
  if (!global.gc)
    throw new Error('the catch-up memory probe needs node --expose-gc (npm run bench passes it)');
  const large = Math.max(2000, Math.round(100_000 * o.scale));
  const small = Math.max(200, Math.round(large / 10));
  const a = await startNode('group', 'Catch-up origin');
  const receivers: Node[] = [];
  let origin: StartedProcess | null = null;
  try {
    await fill(a, large);
    const feed = await a.instance.instance.pool.query<{ seq: string }>(
      'SELECT seq FROM event_sequence WHERE feed ORDER BY seq',
    );
    const seqs = feed.rows.map((r) => Number(r.seq));
    // The verify loop's events (read now: A's pool closes when it moves to its own process).
    const sample = await a.instance.instance.pool.query<{ envelope: string }>(
      `SELECT envelope FROM events WHERE feed AND type = 'agent.created' LIMIT $1`,
      [Math.min(large, 10_000)],
    );
    // A moves to its own process: same database, data folder (its key), port and base URL.
    await a.instance.stop();
    const port = new URL(a.url).port;
    origin = startProcess({
      NODE_ENV: 'production',
      DATABASE_URL: a.instance.databaseUrl,
      TRIBUTARY_DATA_DIR: a.instance.dataDir,
      PORT: port,
      BASE_URL: a.url,
      INSTANCE_ROLE: 'group',
      INSTANCE_NAME: 'Catch-up origin',
      LOG_LEVEL: 'warn',
      FEDERATION_SYNC: 'off',
      OUTBOUND_ALLOWED_ADDRESSES: '127.0.0.0/8', // its peers are on loopback here
    });
    await ready(Number(port), origin);
    // A's operator, signed in again on A's process (to register each receiver there).
    const operator = browser(a.url);
    const signedIn = await operator.post('/api/auth/signin', { identifier: 'op_group', password });
    if (signedIn.status !== 200)
      throw new Error(`sign-in on the origin: ${signedIn.status} ${signedIn.text}`);

    const catchUp = async (behind: number, probe: 'rate' | 'memory') => {
      const probing = probe === 'memory';
      const b = await startNode('global', `Catch-up receiver ${behind}`);
      receivers.push(b);
      await register(b, a);
      await register({ ...a, operator }, b);
      // B is exactly `behind` feed events behind A.
      const start = seqs[seqs.length - behind - 1] ?? 0;
      await b.instance.instance.pool.query(
        `INSERT INTO federation_sync_cursors (peer_id, direction, position, next_attempt_at, created_at, last_success_at)
         VALUES ($1, 'pull', $2, now(), now(), now())`,
        [a.id, start],
      );
      global.gc?.();
      const base = process.memoryUsage();
      let peakHeap = base.heapUsed;
      let peakLive = base.heapUsed;
      let peakRss = base.rss;
      // Sampled only while probing: in a timed catch-up it is work the sync runner does not do.
      const sampler = probing
        ? setInterval(() => {
            const m = process.memoryUsage();
            peakHeap = Math.max(peakHeap, m.heapUsed);
            peakRss = Math.max(peakRss, m.rss);
          }, 20)
        : undefined;
      // BENCH_CPU_PROFILE=<file>: a CPU profile of this process during the larger catch-up.
      const profiling = behind === large && !probing && process.env.BENCH_CPU_PROFILE ? new Session() : null;
      if (profiling) {
        profiling.connect();
        await profiling.post('Profiler.enable');
        await profiling.post('Profiler.start');
      }
      const cpu0 = cpuReading(origin?.child.pid);
      const t = performance.now();
      let accepted = 0;
      try {
        for (;;) {
          const outcome = await syncPeer(
            composedFor(b.instance.instance.services, federationComposed),
            a.id,
            'pull',
            settings,
          );
          if (!outcome || outcome.kind === 'failed')
            throw new Error(`pull failed: ${outcome ? outcome.message : 'cursor busy'}`);
          accepted += outcome.accepted;
          // What the catch-up keeps alive, not garbage V8 has not collected yet: sample after a full GC.
          if (probing) {
            global.gc!();
            peakLive = Math.max(peakLive, process.memoryUsage().heapUsed);
          }
          if (!outcome.more) break;
        }
      } finally {
        clearInterval(sampler);
      }
      const seconds = (performance.now() - t) / 1000;
      const cpu1 = cpuReading(origin?.child.pid);
      if (profiling) {
        const { profile } = await profiling.post('Profiler.stop');
        await writeFile(process.env.BENCH_CPU_PROFILE!, JSON.stringify(profile));
        profiling.disconnect();
      }
      if (accepted !== behind) throw new Error(`caught up ${accepted} of ${behind} events`);
      const r = {
        rate: behind / seconds,
        liveGrowth: peakLive - base.heapUsed,
        heapGrowth: peakHeap - base.heapUsed,
        rssGrowth: peakRss - base.rss,
      };
      const what = `catch-up ${behind.toLocaleString('en-US')} behind (${probing ? 'memory probe: a full GC a page' : 'rate'})`;
      o.log(`    ${what}: ${cpuPer(cpu0, cpu1, behind)}`);
      o.log(
        `    ${what}: ${Math.round(r.rate)} events/s${probing ? `; peak live heap (after GC, per page) +${mb(r.liveGrowth)}, peak heap +${mb(r.heapGrowth)}, peak RSS +${mb(r.rssGrowth)}` : ''}`,
      );
      await b.instance.destroy();
      receivers.splice(receivers.indexOf(b), 1);
      return r;
    };

    // The rate's baseline: a bare verify loop over the same events, cached key.
    const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: a.publicKey }, format: 'jwk' });
    const items = sample.rows.map((r) => {
      const e = JSON.parse(r.envelope) as Parameters<typeof signingInput>[0] & { sig: string };
      return { input: signingInput(e), sig: Buffer.from(e.sig, 'base64url') };
    });
    const verifyLoop = () => {
      const t = performance.now();
      for (const it of items) if (!verify(null, it.input, key, it.sig)) throw new Error('bad signature');
      return items.length / ((performance.now() - t) / 1000);
    };

    // The memory probes first, as before the rate had catch-ups of its own: run after those, the larger
    // probe's peak came out at 3.0-3.2 MB in four runs of four (2.1-2.3 MB when run first).
    const smallMemory = await catchUp(small, 'memory');
    const largeMemory = await catchUp(large, 'memory');
    const verifyRates = [verifyLoop()];
    const smallRate = await catchUp(small, 'rate');
    verifyRates.push(verifyLoop());
    const largeRate = await catchUp(large, 'rate');
    verifyRates.push(verifyLoop());
    const verifyRate = median(verifyRates);

    return [
      {
        name: `federation catch-up, ${large.toLocaleString('en-US')} events behind (pull over HTTP)`,
        unit: 'events',
        subject: largeRate.rate,
        baseline: verifyRate,
        subjectRates: [largeRate.rate],
        baselineRates: verifyRates,
        target: CATCH_UP_TARGET,
        note: `vs a bare crypto.verify loop (median of the loop before each timed catch-up and after the last); ${small.toLocaleString('en-US')} behind: ${Math.round(smallRate.rate)}/s`,
      },
      {
        name: `catch-up memory: peak live heap growth at ${small.toLocaleString('en-US')} ÷ at ${large.toLocaleString('en-US')} behind`,
        unit: 'MB',
        // A floor of 1 MB each: a few hundred kB either way is noise, not growth.
        subject: Math.max(smallMemory.liveGrowth, 1e6) / 1e6,
        baseline: Math.max(largeMemory.liveGrowth, 1e6) / 1e6,
        target: 0.67,
        subjectRates: [smallMemory.liveGrowth / 1e6],
        baselineRates: [largeMemory.liveGrowth / 1e6],
        note: `flat memory: the ${large.toLocaleString('en-US')}-event backlog may keep at most 1.5× the live heap of the ${small.toLocaleString('en-US')} one (peak heap incl. garbage +${mb(smallMemory.heapGrowth)} vs +${mb(largeMemory.heapGrowth)}; RSS +${mb(smallMemory.rssGrowth)} vs +${mb(largeMemory.rssGrowth)})`,
      },
    ];
  } finally {
    if (origin && origin.child.exitCode === null) {
      origin.child.kill('SIGTERM');
      await origin.exited;
    }
    await Promise.all([a.instance.destroy(), ...receivers.map((r) => r.instance.destroy())]);
  }
}

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

/** Appends `n` federable events of A (untimed): agent.created of new agents. */
async function fill(a: Node, n: number) {
  await appendNewAgents(a.instance.instance.services, n, 'Backlog');
  await a.instance.instance.sequencer.drain(120_000);
}
