// Faults under Stripe's completions and the settlements they lead to, with real processes: the global
// instance G runs as `tributary start` on a PostgreSQL cluster of this test's own (never the shared one),
// its sellers on a sovereign instance A. PostgreSQL is killed (-9) while completions arrive and started
// again (crash recovery); G is killed (-9) right after A took a settlement and before G recorded its
// delivery, with another completion arriving while it is down. Stripe retries what was not answered 2xx;
// every payment ends settled once on A, with one receipt and one delivery on G.
import { startEmbeddedPostgres } from '@tributary/infra';
import { eventuallyWithin, startStripeApiServer, type StripeApiServer } from '@tributary/test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { failpointProcess, globalProcessEnv, queryRows } from '../e2e/start-helpers.js';
import { register, signedPost, startNode, type Node } from './federation-helpers.js';

const eventually = eventuallyWithin(120_000);
const key = (prefix: string) => `${prefix}-${randomBytes(6).toString('hex')}`;

type Cluster = Awaited<ReturnType<typeof startEmbeddedPostgres>>;

describe('payments settled once across crashes of PostgreSQL and of the global instance', () => {
  let stripe: StripeApiServer;
  let clusterDir: string;
  let cluster: Cluster;
  let g: Node; // set up in-process, then run as a real process on the same database, data folder and port
  let a: Node;
  let gEnv: Record<string, string>;
  const gProcess = failpointProcess(() => gEnv);
  const webhookSecret = `whsec_${randomBytes(16).toString('hex')}`;

  const rows = (n: Node, sql: string, values: unknown[] = []) =>
    queryRows(n.instance.databaseUrl, sql, values);
  /** Each payment event of `n` about `obligationIds`, as `<obligationId> <type>`, sorted. */
  const paymentLog = async (n: Node, obligationIds: string[]) =>
    (
      await rows(
        n,
        `SELECT envelope::jsonb->'data'->>'obligationId' AS o, type FROM events
         WHERE type LIKE 'payment.%' AND envelope::jsonb->'data'->>'obligationId' = ANY($1::text[])`,
        [obligationIds],
      )
    )
      .map((r) => `${r.o} ${r.type}`)
      .sort();
  /** What each payment must have left, once settled: on A, on G. */
  const settledOnce = (obligationIds: string[]) => ({
    a: obligationIds
      .flatMap((o) => [
        `${o} payment.obligation_checkout_opened`,
        `${o} payment.obligation_recorded`,
        `${o} payment.obligation_settled`,
      ])
      .sort(),
    g: obligationIds
      .flatMap((o) => [
        `${o} payment.checkout_completed`,
        `${o} payment.checkout_session_created`,
        `${o} payment.receipt_settled`,
        `${o} payment.settlement_delivered`,
      ])
      .sort(),
  });
  const openCheckout = async (obligationId: string) => {
    const r = await a.operator.post('/api/ops/svc.payments.start_checkout', {
      obligationId,
      lineItems: [{ name: 'A turned bowl', amount: 2400, quantity: 1 }],
      currency: 'eur',
      successUrl: `${a.url}/paid`,
      cancelUrl: `${a.url}/cancelled`,
    });
    assert.ok([200, 201].includes(r.status), r.text);
    return r.json.result.sessionId as string;
  };
  const settledOnA = async (obligationIds: string[]) =>
    Number(
      (
        await rows(
          a,
          'SELECT count(*) AS n FROM rm_payment_obligations WHERE obligation_id = ANY($1::text[]) AND receipt_id IS NOT NULL',
          [obligationIds],
        )
      )[0]!.n,
    ) === obligationIds.length;
  const deliveredOnG = async (obligationIds: string[]) =>
    Number(
      (
        await rows(
          g,
          'SELECT count(*) AS n FROM rm_payment_checkouts WHERE obligation_id = ANY($1::text[]) AND delivered',
          [obligationIds],
        )
      )[0]!.n,
    ) === obligationIds.length;

  beforeAll(async () => {
    // Stripe keeps retrying a delivery for about two minutes: long enough for a restart on a busy machine.
    stripe = await startStripeApiServer({
      retryDelaysMs: [200, 500, 1000, 2000, 4000, 8000, 15000, 30000, 60000],
    });
    clusterDir = await mkdtemp(join(tmpdir(), 'trib-pg-crash-'));
    cluster = await startEmbeddedPostgres({ dataDir: clusterDir, settings: { fsync: 'off' } });
    const stripeEnv = {
      STRIPE_SECRET_KEY: stripe.secretKey,
      STRIPE_WEBHOOK_SECRET: webhookSecret,
      STRIPE_API_BASE: stripe.url,
      PAYMENTS_WORKER_INTERVAL_MS: '100',
    };
    g = await startNode(
      'global',
      'Global',
      { FEDERATION_SYNC: 'off', ...stripeEnv },
      { reuse: { databaseUrl: cluster.url, dataDir: '', drop: async () => undefined } },
    );
    a = await startNode('person', 'Alder', { FEDERATION_SYNC: 'off', GLOBAL_URL: g.url });
    await register(g, a);
    await register(a, g);
    const hook = `${g.url}/api/federation/stripe/webhook`;
    stripe.addWebhookEndpoint({ url: hook, secret: webhookSecret });
    stripe.addWebhookEndpoint({ url: hook, secret: webhookSecret, connect: true });
    const onboard = await signedPost(
      a,
      `${g.url}/api/federation/connect/onboarding`,
      JSON.stringify({
        agentId: a.operatorAgentId,
        country: 'DE',
        refreshUrl: `${a.url}/onboarding/refresh`,
        returnUrl: `${a.url}/onboarding/done`,
      }),
    );
    assert.equal(onboard.status, 200, onboard.text);
    stripe.completeOnboarding(onboard.json.result.accountId);
    await eventually(
      'the connected account enabled on G',
      async () =>
        (
          await rows(g, 'SELECT charges_enabled FROM rm_payment_accounts WHERE account_id = $1', [
            onboard.json.result.accountId,
          ])
        )[0]?.charges_enabled === true,
    );
    await stripe.waitForDeliveries();
    await g.instance.stop();
    gEnv = globalProcessEnv(
      { databaseUrl: g.instance.databaseUrl, dataDir: g.instance.dataDir, url: g.url },
      stripeEnv,
    );
  });
  afterAll(async () => {
    gProcess.proc?.child.kill('SIGKILL');
    await gProcess.proc?.exited;
    await a?.instance.destroy();
    await g?.instance.destroy().catch(() => undefined);
    await cluster?.stop();
    await rm(clusterDir, { recursive: true, force: true });
    await stripe?.close();
  });

  test('given PostgreSQL killed while Stripe delivers completions and G settles them, when it has recovered, then each payment is settled once', async () => {
    await gProcess.run();
    const obligations = [key('pg'), key('pg'), key('pg'), key('pg')];
    const sessions: string[] = [];
    for (const o of obligations) sessions.push(await openCheckout(o));
    // Two buyers pay and PostgreSQL dies under their completions; two more pay while it is down.
    await stripe.completeCheckout(sessions[0]!);
    await stripe.completeCheckout(sessions[1]!);
    const postmaster = Number(
      (await readFile(join(cluster.clusterDir, 'postmaster.pid'), 'utf8')).split('\n')[0],
    );
    process.kill(postmaster, 'SIGKILL');
    await stripe.completeCheckout(sessions[2]!);
    await stripe.completeCheckout(sessions[3]!);
    // Its supervisor starts it again on its data folder and port (as in service): crash recovery replays the WAL.
    await eventually('PostgreSQL restarted by its supervisor', async () => {
      const pid = await readFile(join(cluster.clusterDir, 'postmaster.pid'), 'utf8').catch(() => '');
      return cluster.running() && pid !== '' && Number(pid.split('\n')[0]) !== postmaster;
    });

    await eventually('every payment settled on A', () => settledOnA(obligations));
    await eventually('every settlement delivery recorded on G', () => deliveredOnG(obligations));
    await stripe.waitForDeliveries();
    const want = settledOnce(obligations);
    assert.deepEqual(await paymentLog(a, obligations), want.a);
    assert.deepEqual(await paymentLog(g, obligations), want.g);
    assert.equal(gProcess.proc!.child.exitCode, null, 'G kept running through the outage');
    // The outage was real: G did not take completions while its database was down (an error or no
    // answer), and Stripe retried them.
    const completions = stripe.deliveries.filter((d) => d.eventType === 'checkout.session.completed');
    assert.ok(
      completions.some((d) => d.status < 200 || d.status >= 300),
      JSON.stringify(completions.map((d) => d.status)),
    );
  });

  test('given G killed right after A took a settlement and before G recorded it, and a completion arriving while G is down, when G starts again, then each payment is settled once', async () => {
    const obligations = [key('kill'), key('kill')];
    // The failpoint fires only once a settlement has been delivered: the checkouts open as usual.
    const dying = await gProcess.run('payments.settlement.after-delivery');
    const sessions: string[] = [];
    for (const o of obligations) sessions.push(await openCheckout(o));
    await stripe.completeCheckout(sessions[0]!);
    await dying.exited;
    assert.equal(dying.child.signalCode, 'SIGKILL', dying.output());
    // A holds the settlement; G has no record of delivering it.
    await eventually('the first payment settled on A', () => settledOnA([obligations[0]!]));
    assert.equal(await deliveredOnG([obligations[0]!]), false);
    // The next buyer pays while G is down: Stripe's delivery fails and is retried.
    await stripe.completeCheckout(sessions[1]!);
    await new Promise((r) => setTimeout(r, 1_000));
    await gProcess.run();

    await eventually('every payment settled on A', () => settledOnA(obligations));
    await eventually('every settlement delivery recorded on G', () => deliveredOnG(obligations));
    await stripe.waitForDeliveries();
    const want = settledOnce(obligations);
    assert.deepEqual(await paymentLog(a, obligations), want.a);
    assert.deepEqual(await paymentLog(g, obligations), want.g);
    // The second completion found G down (no answer) and was delivered again once it was back.
    const second = stripe.deliveries.filter(
      (d) => d.eventType === 'checkout.session.completed' && d.body.includes(sessions[1]!),
    );
    assert.ok(
      second.some((d) => d.status === 0),
      JSON.stringify(second.map((d) => d.status)),
    );
    assert.ok(second.some((d) => d.status === 200));
  });
});
