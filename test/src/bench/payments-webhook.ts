// Benchmark 15: Stripe webhook intake on the global instance (POST /api/federation/stripe/webhook: the
// raw body's Stripe-Signature checked by the `stripe` package, the event recorded once by its id in the
// intake's table by one group-committed INSERT shared by concurrent deliveries, answered 200 once it is
// durable; the worker puts each on the log afterwards) against what a user would write instead (#43
// item 7): a node:http handler that checks the Stripe-Signature with the same package
// (stripe.webhooks.constructEvent) and INSERTs the event into an inbox table of its own, one INSERT with
// its own commit per delivery, on the instance's own pool and database. The bare handler that only
// verifies and answers 200 stays as a third arm, for information (it writes nothing, so no durable
// intake can come near it on two cores). Every arm gets distinct events (a repeated id would be a cheaper
// duplicate), signed before the round is timed, sent by CLIENTS concurrent keep-alive clients. Arms
// rotate round by round after one untimed warm-up round each; each arm's rate is the median of its
// rounds. After each intake round the instance's payments worker is let finish (untimed) what that
// round recorded — logging and processing each event — so every round, of any arm, starts with the
// instance quiet: the worker's work runs during the intake's own rounds, as it does in service.
// Target: intake ≥ 0.5× the inbox handler.
//
//   benchPaymentsWebhook(options?) → Promise<ResultRow[]>
import { eventually, startStripeApiServer, startTestInstance, STRIPE_API_VERSION } from '@tributary/test';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import type pg from 'pg';
import Stripe from 'stripe';
import { concurrently, median, type ResultRow } from './bench-kit.js';

export const WEBHOOK_INTAKE_TARGET = 0.5;
const CLIENTS = 8;
const SECRET = `whsec_${'b'.repeat(32)}`;

export interface PaymentsWebhookOptions {
  rounds?: number;
  scale?: number;
  log?: (line: string) => void;
}

const percentile = (sorted: readonly number[], p: number) =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/** The user's own inbox table (created by the bench in the instance's database, not a migration). */
const INBOX_TABLE = 'bench_user_webhook_inbox';

/**
 * A node:http handler verifying the signature over the raw body with the `stripe` package, then — with
 * `pool` — INSERTing the event into an inbox table (its own commit) before answering 200, as a user would
 * write it; without, answering 200 at once (the bare arm).
 */
async function startHandler(stripe: Stripe, pool?: pg.Pool) {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(
          raw,
          String(req.headers['stripe-signature'] ?? ''),
          SECRET,
          300,
        );
      } catch {
        res.writeHead(400);
        res.end();
        return;
      }
      const answer = () => {
        const body = JSON.stringify({ received: true, eventId: event.id });
        res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
        res.end(body);
      };
      if (!pool) return answer();
      pool
        .query(
          `INSERT INTO ${INBOX_TABLE} (id, type, body) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING`,
          [event.id, event.type, raw.toString('utf8')],
        )
        .then(answer, () => {
          res.writeHead(500);
          res.end();
        });
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

export async function benchPaymentsWebhook(options: PaymentsWebhookOptions = {}): Promise<ResultRow[]> {
  const rounds = options.rounds ?? 5;
  const perRound = Math.max(CLIENTS * 10, Math.round(400 * (options.scale ?? 1)));
  const log = options.log ?? (() => undefined);
  const api = await startStripeApiServer();
  const stripe = new Stripe(api.secretKey, { ...api.clientOptions, maxNetworkRetries: 0 });
  const instance = await startTestInstance({
    env: {
      INSTANCE_ROLE: 'global',
      STRIPE_SECRET_KEY: api.secretKey,
      STRIPE_WEBHOOK_SECRET: SECRET,
      STRIPE_API_BASE: api.url,
      OUTBOUND_ALLOWED_ADDRESSES: '127.0.0.1',
      PAYMENTS_RECONCILE_SECONDS: '0',
    },
  });
  const pool = instance.instance.pool;
  await pool.query(
    `CREATE TABLE IF NOT EXISTS ${INBOX_TABLE} (id text PRIMARY KEY, type text NOT NULL, body text NOT NULL,
       received_at timestamptz NOT NULL DEFAULT now())`,
  );
  const bare = await startHandler(stripe);
  const inbox = await startHandler(stripe, pool);
  const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS });
  let n = 0;
  /** A distinct event as Stripe sends it (pretty-printed), with its Stripe-Signature. */
  const signedEvent = () => {
    const id = `evt_bench${String(++n).padStart(12, '0')}`;
    const body = JSON.stringify(
      {
        id,
        object: 'event',
        api_version: STRIPE_API_VERSION,
        created: Math.floor(Date.now() / 1000),
        data: { object: { id: `pi_bench${n}`, object: 'payment_intent', amount: 1000, currency: 'eur' } },
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
        type: 'payment_intent.created',
      },
      null,
      2,
    );
    return { body, signature: api.signatureHeader(body, SECRET) };
  };
  const post = (url: URL, e: { body: string; signature: string }) =>
    new Promise<number>((resolve, reject) => {
      const req = http.request(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'POST',
          agent,
          headers: {
            'Content-Type': 'application/json; charset=utf-8',
            'Content-Length': Buffer.byteLength(e.body),
            'Stripe-Signature': e.signature,
          },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.end(e.body);
    });

  const targets = {
    intake: new URL('/api/federation/stripe/webhook', instance.url),
    inbox: new URL(inbox.url),
    bare: new URL(bare.url),
  } as const;
  type Arm = keyof typeof targets;
  const ARMS: Arm[] = ['intake', 'inbox', 'bare'];
  const times = { intake: [] as number[], inbox: [] as number[], bare: [] as number[] };
  const rates = { intake: [] as number[], inbox: [] as number[], bare: [] as number[] };
  /** This process's CPU (the clients, the servers and the instance's worker) per event, by arm. */
  const cpu = { intake: [] as number[], inbox: [] as number[], bare: [] as number[] };
  const count = async (sql: string) =>
    Number((await instance.instance.pool.query<{ n: string }>(sql)).rows[0]!.n);
  let sentToIntake = 0;
  const processed = `SELECT count(*) AS n FROM events WHERE type = 'payment.webhook_event_processed'`;
  /** Waits (bounded) until the worker has logged and processed every event the intake answered. */
  const settled = () =>
    eventually(
      `the worker to process ${sentToIntake} webhook events`,
      async () => (await count(processed)) === sentToIntake,
      120_000,
      async () => `${await count(processed)} processed`,
    );
  const round = async (arm: Arm, timed: boolean) => {
    const events = Array.from({ length: perRound }, signedEvent);
    let next = 0;
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    await concurrently(CLIENTS, async () => {
      for (let i = next++; i < events.length; i = next++) {
        const t0 = performance.now();
        const status = await post(targets[arm], events[i]!);
        if (status !== 200) throw new Error(`${arm}: answered ${status}`);
        if (timed) times[arm].push(performance.now() - t0);
      }
    });
    if (timed) {
      rates[arm].push(perRound / ((performance.now() - started) / 1000));
      const used = process.cpuUsage(cpuBefore);
      cpu[arm].push((used.user + used.system) / perRound);
    }
    if (arm === 'intake') {
      sentToIntake += perRound;
      await settled();
    }
  };
  try {
    for (const arm of ARMS) await round(arm, false);
    // Each round the arms rotate: intake first, then the inbox handler first, then the bare one.
    for (let r = 0; r < rounds; r++)
      for (let k = 0; k < ARMS.length; k++) await round(ARMS[(r + k) % ARMS.length]!, true);
    // Every answered event is in the intake's table (durable before the 200), and the worker (waited for
    // after each intake round) put each on the log once.
    const expected = perRound * (rounds + 1);
    const intakeRows = await count('SELECT count(*) AS n FROM payment_webhook_inbox');
    if (intakeRows !== expected)
      throw new Error(`the intake recorded ${intakeRows} webhook events, expected ${expected}`);
    const userRows = await count(`SELECT count(*) AS n FROM ${INBOX_TABLE}`);
    if (userRows !== expected)
      throw new Error(`the inbox handler recorded ${userRows} webhook events, expected ${expected}`);
    const recorded = await count(
      `SELECT count(*) AS n FROM events WHERE type = 'payment.webhook_event_received'`,
    );
    if (recorded !== expected) throw new Error(`${recorded} webhook events on the log, expected ${expected}`);
    const stats = (arm: Arm) => {
      const sorted = [...times[arm]].sort((a, b) => a - b);
      return { p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
    };
    const ms = (v: number) => v.toFixed(2);
    const i = stats('intake');
    const u = stats('inbox');
    const b = stats('bare');
    log(
      `    webhook intake: ${median(rates.intake).toFixed(0)}/s, p50 ${ms(i.p50)} ms, p99 ${ms(i.p99)} ms; ` +
        `inbox handler (verify + INSERT, own commit): ${median(rates.inbox).toFixed(0)}/s, p50 ${ms(u.p50)} ms, p99 ${ms(u.p99)} ms; ` +
        `bare verifier (info): ${median(rates.bare).toFixed(0)}/s, p50 ${ms(b.p50)} ms, p99 ${ms(b.p99)} ms, ` +
        `intake ÷ bare ${(median(rates.intake) / median(rates.bare)).toFixed(2)}× ` +
        `(${CLIENTS} clients, ${perRound} events per round; ${recorded} recorded once each); this ` +
        `process's CPU per event ${median(cpu.intake).toFixed(0)} / ${median(cpu.inbox).toFixed(0)} / ${median(cpu.bare).toFixed(0)} µs`,
    );
    return [
      {
        name: `Stripe webhook intake (verify, record, answer; p50 ${ms(i.p50)} / p99 ${ms(i.p99)} ms) vs a node:http handler verifying with stripe and INSERTing into an inbox table, own commit, same pool (p50 ${ms(u.p50)} / p99 ${ms(u.p99)} ms)`,
        unit: 'event',
        subject: median(rates.intake),
        baseline: median(rates.inbox),
        target: WEBHOOK_INTAKE_TARGET,
        subjectRates: rates.intake,
        baselineRates: rates.inbox,
      },
      {
        name: `Stripe webhook intake vs the bare signature check that writes nothing (information; p50 ${ms(b.p50)} / p99 ${ms(b.p99)} ms)`,
        unit: 'event',
        subject: median(rates.intake),
        baseline: median(rates.bare),
        subjectRates: rates.intake,
        baselineRates: rates.bare,
      },
    ];
  } finally {
    agent.destroy();
    await bare.close();
    await inbox.close();
    await instance.destroy();
    await api.close();
  }
}

// Run on its own: `node --import tsx test/src/bench/payments-webhook.ts`.
if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = await benchPaymentsWebhook({
    rounds: Number(process.env.BENCH_ROUNDS ?? 5),
    scale: Number(process.env.BENCH_SCALE ?? 1),
    log: (l) => console.log(l),
  });
  console.log(JSON.stringify(rows, null, 2));
}
