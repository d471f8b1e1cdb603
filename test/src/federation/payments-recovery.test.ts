// A Checkout Session the global instance never recorded, for a seller on a sovereign instance
// (docs/payments.md#exactly-once, "A session we never recorded"): the global instance G runs as a real
// process (`tributary start`) with the failpoint that SIGKILLs it right after Stripe created the session and
// before our record; the buyer pays while G is down; started again, G's webhook consumer records the session
// from what Stripe holds (`checkout_recovered`) and the settlement reaches the seller's instance A once. A
// paid session that fails the recovery checks (not what its metadata's request digest says, a seller with no
// connected account here, no digest at all) stays `unknown_checkout` and writes nothing on either side.
// (The same crash for a seller of the global instance itself: test/src/e2e/payments-crash-steps.test.ts.)
import { eventuallyWithin, startStripeApiServer, type StripeApiServer } from '@tributary/test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { failpointProcess, globalProcessEnv, queryRows } from '../e2e/start-helpers.js';
import { signedPost, startPeeredInstances, type Loose, type Node } from './federation-helpers.js';

const eventually = eventuallyWithin(60_000);
const key = (prefix: string) => `${prefix}-${randomBytes(6).toString('hex')}`;

describe('a checkout session recovered for a seller on a sovereign instance', () => {
  let stripe: StripeApiServer;
  let g: Node; // set up in-process, then run as a real process on the same database, data folder and port
  let a: Node;
  let gEnv: Record<string, string>;
  const gProcess = failpointProcess(() => gEnv);
  const webhookSecret = `whsec_${randomBytes(16).toString('hex')}`;

  /** A query on `n`'s database (G's own pool is gone once it runs as a process). */
  const rows = (n: Node, sql: string, values: unknown[] = []) =>
    queryRows(n.instance.databaseUrl, sql, values);
  /** `n`'s payment events besides the webhook intake's own record of each Stripe event. */
  const paymentEvents = async (n: Node) =>
    Number(
      (
        await rows(
          n,
          `SELECT count(*) AS n FROM events WHERE type LIKE 'payment.%' AND type NOT LIKE 'payment.webhook_%'`,
        )
      )[0]!.n,
    );
  /** `n`'s payment events whose data field `field` is `value`, in log order. */
  const logOf = async (n: Node, field: string, value: string) =>
    (
      await rows(
        n,
        `SELECT type FROM events WHERE type LIKE 'payment.%' AND envelope::jsonb->'data'->>$1 = $2 ORDER BY position`,
        [field, value],
      )
    ).map((r) => r.type as string);
  const checkoutInput = (obligationId: string) => ({
    obligationId,
    lineItems: [{ name: 'A turned bowl', amount: 2400, quantity: 1 }],
    currency: 'eur',
    successUrl: `${a.url}/paid`,
    cancelUrl: `${a.url}/cancelled`,
  });
  const sessionsFor = (obligationId: string) =>
    stripe.objects('checkout.session').filter((s) => (s as Loose).metadata?.obligationId === obligationId);
  /** The outcome G's consumer gave a Stripe event, once processed. */
  const outcomeOf = (eventId: string) =>
    eventually(
      `the webhook event ${eventId} processed`,
      async () =>
        (
          await rows(
            g,
            'SELECT outcome FROM rm_payment_webhook_events WHERE event_id = $1 AND processed_at IS NOT NULL',
            [eventId],
          )
        )[0]?.outcome as string | undefined,
    );

  beforeAll(async () => {
    stripe = await startStripeApiServer();
    const stripeEnv = {
      STRIPE_SECRET_KEY: stripe.secretKey,
      STRIPE_WEBHOOK_SECRET: webhookSecret,
      STRIPE_API_BASE: stripe.url,
      PAYMENTS_WORKER_INTERVAL_MS: '100',
    };
    [g, a] = await startPeeredInstances({
      env: { FEDERATION_SYNC: 'off' },
      globalUrl: true,
      global: { name: 'Global', env: stripeEnv },
      sovereigns: [{ role: 'person', name: 'Alder' }],
    });
    const hook = `${g.url}/api/federation/stripe/webhook`;
    stripe.addWebhookEndpoint({ url: hook, secret: webhookSecret });
    stripe.addWebhookEndpoint({ url: hook, secret: webhookSecret, connect: true });
    // A's seller (its operator) is onboarded through G and can take charges.
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
    // From here G is a real process on the same database, data folder and port (so A's peer entry holds).
    await g.instance.stop();
    gEnv = globalProcessEnv(
      { databaseUrl: g.instance.databaseUrl, dataDir: g.instance.dataDir, url: g.url },
      stripeEnv,
    );
  });
  afterAll(async () => {
    gProcess.proc?.child.kill('SIGKILL');
    await gProcess.proc?.exited;
    await Promise.all([g?.instance.destroy(), a?.instance.destroy()]);
    await stripe?.close();
  });

  test('given G killed between Stripe creating a sovereign seller’s session and its record, and the buyer paying while G is down, when G starts again, then the completion records the session and the settlement reaches A exactly once', async () => {
    const obligationId = key('ob');
    stripe.setAutoDeliver(false);
    const proc = await gProcess.run('payments.checkout.after-processor');
    const started = await a.operator.post(
      '/api/ops/svc.payments.start_checkout',
      checkoutInput(obligationId),
    );
    assert.ok(started.status >= 400, `A's checkout should have failed with G killed: ${started.text}`);
    await proc.exited;
    assert.equal(proc.child.signalCode, 'SIGKILL', proc.output());
    const [session] = sessionsFor(obligationId);
    assert.ok(session, 'Stripe made the session before the crash');
    assert.equal(sessionsFor(obligationId).length, 1);
    // A recorded the obligation first; G never recorded the session.
    assert.deepEqual(await logOf(a, 'obligationId', obligationId), ['payment.obligation_recorded']);
    assert.deepEqual(await logOf(g, 'obligationId', obligationId), []);

    // The buyer pays while G is down (the session's URL reached them before the crash).
    await stripe.completeCheckout(String(session.id));
    await gProcess.run();
    const completion = stripe
      .pendingEvents()
      .find((e) => e.type === 'checkout.session.completed' && e.data.object.id === session.id)!;
    await stripe.deliverPending();
    stripe.setAutoDeliver(true);
    assert.equal(await outcomeOf(String(completion.id)), 'checkout_recovered');

    // G recorded the session from Stripe, completed it and wrote the receipt, in one append; the seller is
    // not G's, so the obligation is settled by delivery to A, acknowledged once.
    const receipt = (
      await rows(g, 'SELECT * FROM rm_payment_receipts WHERE session_id = $1', [session.id])
    )[0]!;
    assert.equal(Number(receipt.amount), 2400);
    assert.equal(receipt.requester_instance_id, a.id);
    assert.equal(receipt.seller_agent_id, a.operatorAgentId);
    const settled = await eventually('the settlement on A', async () => {
      const o = (
        await rows(a, 'SELECT * FROM rm_payment_obligations WHERE obligation_id = $1', [obligationId])
      )[0];
      return o?.receipt_id ? o : undefined;
    });
    assert.equal(settled.receipt_id, receipt.receipt_id);
    assert.equal(settled.session_id, session.id);
    await eventually(
      'the delivery acknowledged on G',
      async () =>
        (
          await rows(g, 'SELECT delivered FROM rm_payment_checkouts WHERE obligation_id = $1', [obligationId])
        )[0]?.delivered === true,
    );
    const onG = await logOf(g, 'obligationId', obligationId);
    assert.deepEqual(onG.slice().sort(), [
      'payment.checkout_completed',
      'payment.checkout_session_created',
      'payment.receipt_settled',
      'payment.settlement_delivered',
    ]);
    assert.deepEqual(await logOf(a, 'obligationId', obligationId), [
      'payment.obligation_recorded',
      'payment.obligation_settled',
    ]);

    // A's retry answers the recorded session: Stripe is not asked for a second one, nothing is settled twice.
    const retried = await a.operator.post(
      '/api/ops/svc.payments.start_checkout',
      checkoutInput(obligationId),
    );
    assert.ok([200, 201].includes(retried.status), retried.text);
    assert.equal(retried.json.result.sessionId, session.id);
    assert.equal(sessionsFor(obligationId).length, 1);
    // A notes the session it was answered; G writes nothing for the retry.
    const onA = await logOf(a, 'obligationId', obligationId);
    assert.deepEqual(onA, [
      'payment.obligation_recorded',
      'payment.obligation_settled',
      'payment.obligation_checkout_opened',
    ]);
    assert.deepEqual(await logOf(g, 'obligationId', obligationId), onG);
    // A redelivery of the completion changes nothing on either side.
    await stripe.deliver(String(completion.id));
    await stripe.waitForDeliveries();
    await new Promise((r) => setTimeout(r, 500));
    assert.deepEqual(await logOf(g, 'obligationId', obligationId), onG);
    assert.deepEqual(await logOf(a, 'obligationId', obligationId), onA);
  });

  test('given paid sessions that fail the recovery checks, when their completions arrive, then each is unknown_checkout and nothing is recorded on G or A', async () => {
    const running = gProcess.proc;
    if (!running || running.child.exitCode !== null || running.child.signalCode !== null)
      await gProcess.run();
    // Made at Stripe with the platform's key, as G would make one, but not what G would have asked.
    const platform = new Stripe(stripe.secretKey, {
      host: '127.0.0.1',
      port: new URL(stripe.url).port,
      protocol: 'http',
      telemetry: false,
    });
    const account = (
      await rows(g, 'SELECT account_id FROM rm_payment_accounts WHERE agent_id = $1', [a.operatorAgentId])
    )[0]!.account_id as string;
    // The digest G sends with a checkout of one bowl at 2400 (a real one, opened by A as usual).
    const asked = await a.operator.post('/api/ops/svc.payments.start_checkout', checkoutInput(key('ob')));
    assert.equal(asked.status, 201, asked.text);
    const digest = String((stripe.object(asked.json.result.sessionId) as Loose).metadata.requestHash);
    assert.match(digest, /^[0-9a-f]{64}$/);
    const metadataFor = (obligationId: string, o: { sellerAgentId?: string; requestHash?: string }) => ({
      obligationId,
      requesterInstanceId: a.id,
      sellerInstanceId: a.id,
      sellerAgentId: o.sellerAgentId ?? a.operatorAgentId,
      requestedBy: a.operatorAgentId,
      ...(o.requestHash !== undefined && { requestHash: o.requestHash }),
    });
    const cases: [string, { sellerAgentId?: string; requestHash?: string; amount?: number }][] = [
      // The digest of one bowl at 2400, on a session charging 2500: not what was asked.
      ['an amount its request digest does not give', { requestHash: digest, amount: 2500 }],
      // The seller named has no connected account here.
      [
        'a seller with no connected account',
        { sellerAgentId: '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b', requestHash: digest },
      ],
      // No digest at all: not a session G made.
      ['no request digest', {}],
    ];
    for (const [why, o] of cases) {
      const obligationId = key('ob');
      const metadata = metadataFor(obligationId, o);
      const before = { g: await paymentEvents(g), a: await rows(a, 'SELECT count(*) AS n FROM events') };
      const session = await platform.checkout.sessions.create(
        {
          mode: 'payment',
          line_items: [
            {
              quantity: 1,
              price_data: {
                currency: 'eur',
                unit_amount: o.amount ?? 2400,
                product_data: { name: 'A turned bowl' },
              },
            },
          ],
          success_url: `${a.url}/paid`,
          cancel_url: `${a.url}/cancelled`,
          metadata,
          payment_intent_data: { transfer_data: { destination: account }, metadata },
        },
        { idempotencyKey: key('test-session') },
      );
      stripe.setAutoDeliver(false);
      await stripe.completeCheckout(session.id);
      const completion = stripe
        .pendingEvents()
        .find((e) => e.type === 'checkout.session.completed' && e.data.object.id === session.id)!;
      await stripe.deliverPending();
      stripe.setAutoDeliver(true);
      assert.equal(await outcomeOf(String(completion.id)), 'unknown_checkout', why);
      assert.deepEqual(await logOf(g, 'obligationId', obligationId), [], `${why}: nothing recorded on G`);
      assert.deepEqual(
        await rows(g, 'SELECT receipt_id FROM rm_payment_receipts WHERE session_id = $1', [session.id]),
        [],
        `${why}: no receipt`,
      );
      assert.equal(await paymentEvents(g), before.g, `${why}: no payment event on G but the webhook's own`);
      assert.deepEqual(await rows(a, 'SELECT count(*) AS n FROM events'), before.a, `${why}: nothing on A`);
    }
  });
});
