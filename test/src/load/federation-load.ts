// The federation load run (docs/scaling.md#the-load-run): one global instance G (a real `tributary start`
// process on its own database), N simulated sovereigns and three real sovereign processes that follow a
// share of them through G. Everything on loopback, bounded in time (LOAD_SECONDS) and count (N).
//
// The simulated sovereigns live in this one process: each has its own Ed25519 key and instance id, is
// registered on G through G's operator API (POST /api/federation/peers, as an operator registers a peer),
// tells G what it follows (a signed POST /relay/following: nothing, as a sovereign that only publishes),
// appends its own signed `agent.created` events at R events/s (a Poisson process: the N sovereigns' events
// together are one Poisson process of rate N·R, each event given to a sovereign drawn at random), and
// pushes them as a real sovereign's sync does: one signed request (RFC 9421) per batch of what it has not
// pushed yet, naming its range (`?after&through`), at most one in flight per sovereign, over keep-alive
// connections. It also answers what G asks of it (its export, for G's pull; G's own events pushed to it),
// at http://127.0.0.1:<port>/s/<instance id>, without checking G's signatures (the load is on G, not on the
// simulator). The three followers are real processes: each registers G and is registered on it, lists its
// share of the origins (G then relays only those), and pins their keys by hand (pin_origin_key) with the
// simulator's address, so no manifest is fetched.
//
// Measured: push acknowledgement latency (request sent → G's answer), G's sequencing lag (the age of the
// oldest event G stored but has not numbered, sampled), relay lag (an event's occurredAt, set at the
// origin's append, → a follower's recorded_at for it), CPU per event at each stage (G's process and its
// PostgreSQL backends, each follower's, and this process's own), peak RSS, G's database growth per event,
// errors, and duplicates (G's metric tributary_federation_imported_events_total). It ends with `tributary
// log verify` on G and every follower.
import { contentDigest, SIGNATURE_ALGORITHM, signatureHeaders } from '@tributary/adapters';
import { agentStream } from '@tributary/domain';
import { createEnvelopeSigner, nodeIds, publicKeyBase64url, generateSigningKey } from '@tributary/infra';
import type { Signer } from '@tributary/services';
import assert from 'node:assert/strict';
import { randomBytes, randomUUID, sign, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { rm } from 'node:fs/promises';
import { runCli } from '../harness/cli.js';
import { register } from '../federation/federation-helpers.js';
import { cpu, cpuUsed, startProcNode, type CpuSnapshot, type ProcNode } from '../bench/federation-relay.js';

export interface LoadOptions {
  /** Simulated sovereigns. */
  n: number;
  /** Events per second each sovereign appends (mean of its Poisson process). */
  rate: number;
  /** How long the sovereigns append. */
  seconds: number;
  /** How long, after the appending stops, the followers may take to receive the rest. */
  drainSeconds: number;
  /** Which share of the origins the three followers together follow (each a disjoint third of it). */
  followShare: number;
  /** G's pull interval (FEDERATION_PULL_INTERVAL_SECONDS): pushes keep the pull idle between. */
  pullIntervalSeconds: number;
  log: (line: string) => void;
}

export const LOAD_DEFAULTS = {
  n: 1000,
  rate: 1,
  seconds: 120,
  drainSeconds: 120,
  followShare: 0.3,
  pullIntervalSeconds: 60,
} as const;

/** At most this many origins in a follower's list (svc.federation.set_relay_following takes 200). */
const FOLLOW_LIST_MAX = 200;

export interface Quantiles {
  p50: number;
  p99: number;
  max: number;
  count: number;
}

export interface LoadResult {
  n: number;
  rate: number;
  seconds: number;
  /** Registering the N peers on G (seconds, through the operator API) and telling G their following. */
  registerSeconds: number;
  followingSeconds: number;
  appended: number;
  pushRequests: number;
  /** Push request → G's answer, ms. */
  ackMs: Quantiles;
  /** Origin append → G's recorded_at, ms. */
  importLagMs: Quantiles;
  /** The age of G's oldest unnumbered event, sampled every 250 ms, ms. */
  sequencingLagMs: Quantiles;
  /** Origin append → follower recorded_at, ms, over all followers. */
  relayLagMs: Quantiles;
  /** Events held by G of the simulated origins (once each: its unique index). */
  heldOnG: number;
  /** Per follower: events of its share held, and appended. */
  followers: { name: string; held: number; expected: number }[];
  /** CPU seconds per event: G (process + PostgreSQL), each follower (per event it received), simulator. */
  cpuPerEventMs: { g: number; gPg: number; followers: number; followersPg: number; simulator: number };
  /** The same net of what each instance used idle over as long (measured for 5 s before the load). */
  cpuNetPerEventMs: { g: number; gPg: number; followers: number; followersPg: number };
  cpuText: string;
  /** Peak RSS, MB. */
  rssMb: { g: number; followers: number[]; simulator: number };
  /** G's database growth over the run, bytes per event held. */
  dbBytesPerEvent: number;
  /** Push requests answered other than 200, or failed; and events G refused. */
  errors: number;
  errorSamples: string[];
  rejected: number;
  /** G's import metric over the run: accepted and duplicate, by route. */
  imported: Record<string, number>;
  verify: { name: string; ok: boolean; output: string }[];
  /** `uptime` load average (1 min) at the start and the end. */
  load: [number, number];
}

interface Sovereign {
  index: number;
  id: string;
  baseUrl: string;
  publicKey: string;
  keyId: string;
  privateKey: KeyObject;
  signer: Signer;
  /** Its feed: texts in sequence order (sequence = index + 1). */
  feed: string[];
  pushed: number;
  inFlight: boolean;
}

const loadAvg = () => Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);

function quantiles(values: number[]): Quantiles {
  if (values.length === 0) return { p50: NaN, p99: NaN, max: NaN, count: 0 };
  const s = [...values].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
  return { p50: at(0.5), p99: at(0.99), max: s[s.length - 1]!, count: s.length };
}

/** Resident set size of a process, MB (0 once it is gone). */
function rssMb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** G's import metric, `via/result` → count. */
async function importedMetric(g: ProcNode): Promise<Record<string, number>> {
  const text = await (await fetch(`${g.url}/metrics`)).text();
  const out: Record<string, number> = {};
  for (const m of text.matchAll(
    /^tributary_federation_imported_events_total\{([^}]*)\} (\d+(?:\.\d+)?)$/gm,
  )) {
    const labels = Object.fromEntries(
      [...m[1]!.matchAll(/(\w+)="([^"]*)"/g)].map((l) => [l[1]!, l[2]!] as const),
    );
    out[`${labels.via}/${labels.result}`] = Number(m[2]);
  }
  return out;
}

const STALE_SOCKET_CODES = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED']);

const diff = (a: Record<string, number>, b: Record<string, number>) =>
  Object.fromEntries(Object.keys(b).map((k) => [k, b[k]! - (a[k] ?? 0)]));

export async function runFederationLoad(o: LoadOptions): Promise<LoadResult> {
  const load0 = loadAvg();
  const nodes: ProcNode[] = [];
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const freshAgent = new http.Agent({ keepAlive: false });
  let server: http.Server | undefined;
  try {
    const env = {
      FEDERATION_PULL_INTERVAL_SECONDS: String(o.pullIntervalSeconds),
      // A thousand peers' cursors: more attempts at once than the default 4.
      FEDERATION_SYNC_CONCURRENCY: '16',
      // The shared test server allows 100 connections; four processes of 10 and the others' tests exhaust it.
      DATABASE_POOL_SIZE: '6',
    };
    const g = await startProcNode('global', 'Load G', nodes, env);
    const followers: ProcNode[] = [];
    for (const k of [1, 2, 3])
      followers.push(await startProcNode('person', `Load follower F${k}`, nodes, env));

    // The simulator's HTTP side: what G asks of the sovereigns.
    const byId = new Map<string, Sovereign>();
    server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const m = /^\/s\/([0-9a-f-]{36})\/api\/federation\/(events\/export|events\/import)$/.exec(
          (req.url ?? '').split('?')[0]!,
        );
        const s = m && byId.get(m[1]!);
        if (!s || req.method !== 'POST') {
          res.writeHead(404, { 'content-type': 'application/problem+json' });
          return void res.end('{"code":"not_found"}');
        }
        if (m[2] === 'events/import') {
          // G's own events, relayed to a sovereign that follows nothing: taken and counted, not stored.
          const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { events: unknown[] };
          res.writeHead(200, { 'content-type': 'application/json' });
          return void res.end(
            JSON.stringify({ results: [], accepted: body.events.length, duplicates: 0, rejected: 0 }),
          );
        }
        const q = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as {
          since?: number;
          limit?: number;
        };
        const since = q.since ?? 0;
        const limit = q.limit ?? 100;
        const page = s.feed.slice(since, since + limit);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          `{"events":[${page.map((t, i) => `{"sequence":${since + i + 1},"event":${t}}`).join(',')}],"head":${s.feed.length},"hasMore":${since + limit < s.feed.length}}`,
        );
      });
    });
    server.keepAliveTimeout = 60_000;
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
    const simUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    const sovereigns: Sovereign[] = Array.from({ length: o.n }, (_, index) => {
      const { publicKey, privateKey } = generateSigningKey();
      const id = randomUUID();
      const signer = createEnvelopeSigner({ origin: id, privateKey, publicKey });
      const s: Sovereign = {
        index,
        id,
        baseUrl: `${simUrl}/s/${id}`,
        publicKey: publicKeyBase64url(publicKey),
        keyId: signer.keyId,
        privateKey,
        signer,
        feed: [],
        pushed: 0,
        inFlight: false,
      };
      byId.set(id, s);
      return s;
    });

    // Registration, as an operator registers peers: through G's API, a few at a time.
    let t = performance.now();
    await pooled(sovereigns, 8, (s) =>
      register(
        g,
        { id: s.id, url: s.baseUrl, role: 'person', publicKey: s.publicKey },
        { name: `Sim ${s.index}` },
      ),
    );
    const registerSeconds = (performance.now() - t) / 1000;
    o.log(`  registered ${o.n} sovereigns on G in ${registerSeconds.toFixed(1)} s`);

    /** A signed POST to G as `s` over the keep-alive agent: status and body. */
    const signedPost = (s: Sovereign, path: string, body: string) =>
      new Promise<{ status: number; text: string }>((resolve, reject) => {
        const url = `${g.url}${path}`;
        const headers = signatureHeaders(
          { method: 'POST', targetUri: url, contentDigest: contentDigest(body) },
          {
            created: Math.floor(Date.now() / 1000),
            nonce: randomBytes(16).toString('base64url'),
            keyid: s.keyId,
            alg: SIGNATURE_ALGORITHM,
          },
          (base) => sign(null, base, s.privateKey),
        );
        // As a sovereign's outbound client does: a pooled connection G closed as idle just as it was
        // picked fails before any answer, and the push goes again once on a connection of its own.
        const attempt = (fresh: boolean) => {
          const req = http.request(
            url,
            {
              method: 'POST',
              agent: fresh ? freshAgent : agent,
              headers: {
                'content-type': 'application/json',
                'content-length': Buffer.byteLength(body),
                ...headers,
              },
            },
            (res) => {
              let text = '';
              res.setEncoding('utf8');
              res.on('data', (c: string) => (text += c));
              res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
              res.on('error', reject);
            },
          );
          req.on('error', (e: NodeJS.ErrnoException) => {
            if (!fresh && req.reusedSocket && STALE_SOCKET_CODES.has(e.code ?? '')) attempt(true);
            else reject(e);
          });
          req.end(body);
        };
        attempt(false);
      });

    t = performance.now();
    await pooled(sovereigns, 16, async (s) => {
      const r = await signedPost(s, '/api/federation/relay/following', '{"mode":"list","origins":[]}');
      assert.equal(r.status, 200, r.text);
    });
    const followingSeconds = (performance.now() - t) / 1000;

    // The followers: peered with G both ways, each following a disjoint share of the origins.
    const perFollower = Math.min(FOLLOW_LIST_MAX, Math.max(1, Math.floor((o.n * o.followShare) / 3)));
    const shares = followers.map((_, k) => sovereigns.filter((s) => s.index % 3 === k).slice(0, perFollower));
    for (const [k, f] of followers.entries()) {
      await register(g, f);
      await register(f, g);
      await pooled(shares[k]!, 4, async (s) => {
        const r = await f.operator.post('/api/ops/svc.federation.pin_origin_key', {
          origin: s.id,
          publicKey: s.publicKey,
          baseUrl: s.baseUrl,
          name: `Sim ${s.index}`,
        });
        assert.equal(r.status, 201, r.text);
      });
      const set = await f.operator.post('/api/ops/svc.federation.set_relay_following', {
        mode: 'list',
        origins: shares[k]!.map((s) => s.id),
      });
      assert.equal(set.status, 201, set.text);
    }
    o.log(
      `  told G the sovereigns' following in ${followingSeconds.toFixed(1)} s; followers follow ${perFollower} origins each`,
    );

    // --- The timed run. ---
    const sizeOf = async (n: ProcNode) =>
      Number(
        (await n.pool.query<{ b: string }>('SELECT pg_database_size(current_database()) AS b')).rows[0]!.b,
      );
    const size0 = await sizeOf(g);
    const metric0 = await importedMetric(g);
    // What the instances burn idle (sync sweeps, pollers), measured before the load: the per-event costs
    // are printed both whole and net of it.
    const idleSeconds = 5;
    const idle0 = await cpu(nodes);
    await new Promise((r) => setTimeout(r, idleSeconds * 1000));
    const idle1 = await cpu(nodes);
    const cpu0: CpuSnapshot = await cpu(nodes);
    const sim0 = process.cpuUsage();
    const peak = { g: 0, followers: [0, 0, 0], simulator: 0 };
    const sampleRss = () => {
      peak.g = Math.max(peak.g, rssMb(g.proc.child.pid!));
      followers.forEach(
        (f, k) => (peak.followers[k] = Math.max(peak.followers[k]!, rssMb(f.proc.child.pid!))),
      );
      peak.simulator = Math.max(peak.simulator, process.memoryUsage().rss / 2 ** 20);
    };
    const ackMs: number[] = [];
    const errorSamples: string[] = [];
    let errors = 0;
    let rejected = 0;
    let pushRequests = 0;
    let appended = 0;
    const inFlight = new Set<Promise<void>>();

    const push = (s: Sovereign) => {
      if (s.inFlight || s.pushed === s.feed.length) return;
      s.inFlight = true;
      const after = s.pushed;
      const through = s.feed.length;
      const body = `{"events":[${s.feed.slice(after, through).join(',')}]}`;
      const sent = performance.now();
      pushRequests++;
      const p = signedPost(s, `/api/federation/events/import?after=${after}&through=${through}`, body)
        .then((r) => {
          ackMs.push(performance.now() - sent);
          if (r.status !== 200) {
            ackMs.pop();
            errors++;
            if (errorSamples.length < 5) errorSamples.push(`${r.status} ${r.text.slice(0, 200)}`);
            return;
          }
          const summary = JSON.parse(r.text) as { rejected: number; results: { code?: string }[] };
          rejected += summary.rejected;
          if (summary.rejected && errorSamples.length < 5)
            errorSamples.push(`rejected: ${JSON.stringify(summary.results.find((x) => x.code))}`);
          s.pushed = Math.max(s.pushed, through);
        })
        .catch((e: unknown) => {
          errors++;
          if (errorSamples.length < 5) errorSamples.push(String(e));
        })
        .then(async () => {
          // After a failure a sovereign's sync backs off before it tries again (a second here).
          if (s.pushed < through) await new Promise((r) => setTimeout(r, 1000));
        })
        .finally(() => {
          s.inFlight = false;
          inFlight.delete(p);
          // What it appended meanwhile goes next.
          if (s.pushed < s.feed.length) push(s);
        });
      inFlight.add(p);
    };

    const append = (s: Sovereign) => {
      const agentId = randomUUID();
      const stream = agentStream(agentId);
      const { text } = s.signer.seal({
        v: 1,
        id: nodeIds.eventId(),
        type: 'agent.created',
        origin: s.id,
        keyId: s.keyId,
        stream,
        streamVersion: 1,
        actorId: agentId,
        occurredAt: new Date().toISOString(),
        nonce: nodeIds.nonce(),
        data: { agentId, kind: 'person', name: `Load ${s.index} ${s.feed.length + 1}` },
      });
      s.feed.push(text);
      appended++;
      push(s);
    };

    // G's sequencing lag, sampled.
    const seqLag: number[] = [];
    let running = true;
    const sampler = (async () => {
      while (running) {
        const r = await g.pool.query<{ lag: number | null }>(
          `SELECT extract(epoch FROM clock_timestamp() - min(recorded_at)) * 1000 AS lag FROM events
            WHERE position > (SELECT coalesce(max(position), 0) FROM event_sequence)`,
        );
        seqLag.push(Math.max(0, Number(r.rows[0]!.lag ?? 0)));
        sampleRss();
        await new Promise((r) => setTimeout(r, 250));
      }
    })();

    const tStart = new Date();
    const t0 = performance.now();
    const totalRate = o.n * o.rate;
    let next = t0;
    while (performance.now() - t0 < o.seconds * 1000) {
      // The merged Poisson process of all sovereigns: exponential gaps at rate N·R.
      next += (-Math.log(1 - Math.random()) / totalRate) * 1000;
      const wait = next - performance.now();
      if (wait > 1) await new Promise((r) => setTimeout(r, wait));
      // Behind (a late timer, a busy loop): catch up at once, a turn at a time.
      else if (appended % 64 === 0) await new Promise((r) => setImmediate(r));
      append(sovereigns[Math.floor(Math.random() * o.n)]!);
    }
    running = false;
    const appendSeconds = (performance.now() - t0) / 1000;
    // The last pushes, then the followers' share (bounded).
    const until = Date.now() + o.drainSeconds * 1000;
    while ((inFlight.size > 0 || sovereigns.some((s) => s.pushed < s.feed.length)) && Date.now() < until) {
      for (const s of sovereigns) push(s);
      await Promise.race([...inFlight, new Promise((r) => setTimeout(r, 100))]);
    }
    const ids = sovereigns.map((s) => s.id);
    const countIn = async (n: ProcNode, origins: string[]) =>
      Number(
        (
          await n.pool.query<{ n: string }>('SELECT count(*) AS n FROM events WHERE origin = ANY($1)', [
            origins,
          ])
        ).rows[0]!.n,
      );
    const expected = shares.map((share) => share.reduce((a, s) => a + s.feed.length, 0));
    for (;;) {
      const held = await Promise.all(
        followers.map((f, k) =>
          countIn(
            f,
            shares[k]!.map((s) => s.id),
          ),
        ),
      );
      if (held.every((h, k) => h >= expected[k]!) || Date.now() > until) break;
      sampleRss();
      await new Promise((r) => setTimeout(r, 200));
    }
    await sampler;
    const cpu1 = await cpu(nodes);
    const sim1 = process.cpuUsage(sim0);
    const metric1 = await importedMetric(g);
    const size1 = await sizeOf(g);

    // The lags, from the databases: occurredAt is the origin's append (this process's clock, the same
    // machine's), recorded_at the receiving transaction's start.
    const lags = async (n: ProcNode, origins: string[]) =>
      (
        await n.pool.query<{ ms: number }>(
          `SELECT extract(epoch FROM recorded_at - occurred_at) * 1000 AS ms FROM events
            WHERE origin = ANY($1) AND occurred_at >= $2`,
          [origins, tStart],
        )
      ).rows.map((r) => Number(r.ms));
    const importLag = await lags(g, ids);
    const relayLag = (
      await Promise.all(
        followers.map((f, k) =>
          lags(
            f,
            shares[k]!.map((s) => s.id),
          ),
        ),
      )
    ).flat();
    const heldOnG = await countIn(g, ids);
    const followerHeld = await Promise.all(
      followers.map((f, k) =>
        countIn(
          f,
          shares[k]!.map((s) => s.id),
        ),
      ),
    );

    // CPU per stage: G's process and backends; the followers'; this process's.
    const stage = (n: ProcNode, a0 = cpu0, b1 = cpu1) => {
      const a = a0.get(n)!;
      const b = b1.get(n)!;
      let pgs = 0;
      for (const [pid, s] of b.pg) pgs += s - (a.pg.get(pid) ?? 0);
      return { node: b.node - a.node, pg: pgs };
    };
    const runSeconds = (performance.now() - t0) / 1000;
    const net = (n: ProcNode) => {
      const whole = stage(n);
      const idle = stage(n, idle0, idle1);
      const k = runSeconds / idleSeconds;
      return { node: Math.max(0, whole.node - idle.node * k), pg: Math.max(0, whole.pg - idle.pg * k) };
    };
    const gCpu = stage(g);
    const fCpu = followers.map((f) => stage(f));
    const gNet = net(g);
    const fNet = followers.map(net);
    const relayed = followerHeld.reduce((a, b) => a + b, 0);
    const used = cpuUsed(cpu0, cpu1);
    const perEvent = (s: number, events: number) => (events > 0 ? (s / events) * 1000 : NaN);

    // Every log verifies.
    const verify: LoadResult['verify'] = [];
    for (const n of nodes) {
      // A shared server out of connections (other suites beside the run) is not a verification failure:
      // the command is run again, a few times.
      let r = await runCli({ databaseUrl: n.db.url, dataDir: n.dataDir }, ['log', 'verify'], {
        BASE_URL: n.url,
      });
      for (let i = 0; i < 5 && r.code !== 0 && /too many clients/.test(r.stdout + r.stderr); i++) {
        await new Promise((res) => setTimeout(res, 2000));
        r = await runCli({ databaseUrl: n.db.url, dataDir: n.dataDir }, ['log', 'verify'], {
          BASE_URL: n.url,
        });
      }
      verify.push({ name: n.name, ok: r.code === 0, output: (r.stdout + r.stderr).trim().slice(-600) });
    }
    o.log(`  appended for ${appendSeconds.toFixed(1)} s`);
    return {
      n: o.n,
      rate: o.rate,
      seconds: o.seconds,
      registerSeconds,
      followingSeconds,
      appended,
      pushRequests,
      ackMs: quantiles(ackMs),
      importLagMs: quantiles(importLag),
      sequencingLagMs: quantiles(seqLag),
      relayLagMs: quantiles(relayLag),
      heldOnG,
      followers: followers.map((f, k) => ({ name: f.name, held: followerHeld[k]!, expected: expected[k]! })),
      cpuPerEventMs: {
        g: perEvent(gCpu.node, heldOnG),
        gPg: perEvent(gCpu.pg, heldOnG),
        followers: perEvent(
          fCpu.reduce((a, c) => a + c.node, 0),
          relayed,
        ),
        followersPg: perEvent(
          fCpu.reduce((a, c) => a + c.pg, 0),
          relayed,
        ),
        simulator: perEvent((sim1.user + sim1.system) / 1e6, appended),
      },
      cpuNetPerEventMs: {
        g: perEvent(gNet.node, heldOnG),
        gPg: perEvent(gNet.pg, heldOnG),
        followers: perEvent(
          fNet.reduce((a, c) => a + c.node, 0),
          relayed,
        ),
        followersPg: perEvent(
          fNet.reduce((a, c) => a + c.pg, 0),
          relayed,
        ),
      },
      cpuText: used.text,
      rssMb: peak,
      dbBytesPerEvent: heldOnG > 0 ? (size1 - size0) / heldOnG : NaN,
      errors,
      errorSamples,
      rejected,
      imported: diff(metric0, metric1),
      verify,
      load: [load0, loadAvg()],
    };
  } catch (e) {
    for (const n of nodes) o.log(`    ${n.name} printed:\n${n.proc.output().slice(-3000)}`);
    throw e;
  } finally {
    agent.destroy();
    freshAgent.destroy();
    server?.closeAllConnections();
    server?.close();
    for (const n of nodes) n.proc.child.kill('SIGTERM');
    await Promise.all(nodes.map((n) => n.proc.exited));
    for (const n of nodes) {
      await n.pool.end();
      await n.db.drop();
      await rm(n.dataDir, { recursive: true, force: true });
    }
  }
}

/** Runs `fn` over `items`, at most `width` at once. */
async function pooled<T>(items: readonly T[], width: number, fn: (item: T) => Promise<unknown>) {
  let i = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, items.length) }, async () => {
      while (i < items.length) await fn(items[i++]!);
    }),
  );
}

const f1 = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : '–');
const f0 = (x: number) => (Number.isFinite(x) ? Math.round(x).toLocaleString('en-US') : '–');

/** The result as the lines `npm run load` prints. */
export function formatLoad(r: LoadResult): string[] {
  const q = (x: Quantiles) => `p50 ${f0(x.p50)} ms, p99 ${f0(x.p99)} ms, max ${f0(x.max)} ms`;
  return [
    `N = ${r.n} sovereigns at ${r.rate} event/s each for ${r.seconds} s (load average ${r.load[0]} → ${r.load[1]})`,
    `  registration        ${r.n} peers in ${f1(r.registerSeconds)} s; their following told in ${f1(r.followingSeconds)} s`,
    `  appended            ${r.appended} events in ${r.pushRequests} push requests; G holds ${r.heldOnG}`,
    `  push ack            ${q(r.ackMs)}`,
    `  G import lag        ${q(r.importLagMs)} (origin append → G's transaction)`,
    `  G sequencing lag    ${q(r.sequencingLagMs)} (oldest unnumbered event, sampled)`,
    `  relay lag           ${q(r.relayLagMs)} (origin append → follower's transaction, ${r.relayLagMs.count} events)`,
    `  followers           ${r.followers.map((f) => `${f.name.split(' ').pop()} ${f.held}/${f.expected}`).join(', ')}`,
    `  CPU per event       G ${r.cpuPerEventMs.g.toFixed(2)} ms + PostgreSQL ${r.cpuPerEventMs.gPg.toFixed(2)} ms; follower ${r.cpuPerEventMs.followers.toFixed(2)} ms + PostgreSQL ${r.cpuPerEventMs.followersPg.toFixed(2)} ms (per event received); simulator ${r.cpuPerEventMs.simulator.toFixed(2)} ms (CPU s: ${r.cpuText})`,
    `  … net of idle       G ${r.cpuNetPerEventMs.g.toFixed(2)} ms + PostgreSQL ${r.cpuNetPerEventMs.gPg.toFixed(2)} ms; follower ${r.cpuNetPerEventMs.followers.toFixed(2)} ms + PostgreSQL ${r.cpuNetPerEventMs.followersPg.toFixed(2)} ms`,
    `  peak RSS            G ${f0(r.rssMb.g)} MB, followers ${r.rssMb.followers.map(f0).join('/')} MB, simulator ${f0(r.rssMb.simulator)} MB`,
    `  G database growth   ${f0(r.dbBytesPerEvent)} bytes/event`,
    `  errors              ${r.errors} failed pushes, ${r.rejected} refused events${r.errorSamples.length ? `: ${r.errorSamples.join(' | ')}` : ''}`,
    `  G imports (metric)  ${Object.entries(r.imported)
      .filter(([, v]) => v)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
    `  log verify          ${r.verify.map((v) => `${v.name.split(' ').pop()} ${v.ok ? 'OK' : 'FAILED'}`).join(', ')}`,
    ...r.verify.filter((v) => !v.ok).map((v) => `    ${v.name}: ${v.output}`),
  ];
}
