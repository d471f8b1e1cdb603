// A crash right after Stripe answered a call that creates something, before our record of the answer, for
// each such call besides payouts (payments-crash.test.ts): a connected account, a Checkout Session, a
// refund. The global instance runs as a real process (`tributary start`) with a failpoint that SIGKILLs it
// there; started again, the same request goes again with the same Idempotency-Key, Stripe answers the
// first result, and our log holds the effect once. Two orders a crash makes possible are recovered by the
// webhook consumer (docs/payments.md#exactly-once): the buyer pays a session whose creation we never
// recorded (the completion records it, checked against Stripe), and a refund's `refund.updated` comes
// before our record of the refund (the refund is recorded from Stripe, and its retry finds it recorded).
import {
  browser,
  eventuallyWithin,
  startStripeApiServer,
  startTestInstance,
  type StripeApiServer,
  type TestInstance,
} from '@tributary/test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { failpointProcess, globalProcessEnv, queryRows } from './start-helpers.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loose = Record<string, any>;

const eventually = eventuallyWithin(60_000);

const key = (prefix: string) => `${prefix}-${randomBytes(6).toString('hex')}`;

describe('an account, a checkout and a refund interrupted by a crash after Stripe answered', () => {
  let stripe: StripeApiServer;
  let setup: TestInstance;
  let env: Record<string, string>;
  let url = '';
  let ada: ReturnType<typeof browser>;
  let adaAgentId = '';
  let accountId = '';
  const webhookSecret = `whsec_${randomBytes(16).toString('hex')}`;
  const firstObligation = key('ob');
  let firstSession = '';

  const q = (sql: string, values: unknown[] = []) => queryRows(setup.databaseUrl, sql, values);
  /** Our log's payment events whose data field `field` is `value`, in log order. */
  const logOf = async (field: string, value: string, typePrefix = 'payment.') =>
    (
      await q(
        `SELECT type FROM events WHERE type LIKE $3 AND envelope::jsonb->'data'->>$1 = $2 ORDER BY position`,
        [field, value, `${typePrefix}%`],
      )
    ).map((r) => r.type as string);
  /** The Idempotency-Keys Stripe saw on POSTs to `path` whose body matches. */
  const keysOf = (path: string, match: (params: Loose) => boolean) =>
    stripe.requests
      .filter((r) => r.path === path && r.method === 'POST' && match(r.params))
      .map((r) => String(r.idempotencyKey));

  /** The instance as a real process; with a failpoint, it kills itself there. */
  const instance = failpointProcess(() => env);
  const run = (failpoint?: string) => instance.run(failpoint);
  /** The request is never answered: the process killed itself at the failpoint. */
  const killedBy = async (request: () => Promise<unknown>) => {
    const answer = await request().catch((e: Error) => e);
    assert.ok(
      answer instanceof Error,
      `the request should not have been answered: ${JSON.stringify(answer)}`,
    );
    const proc = instance.proc!;
    await proc.exited;
    assert.equal(proc.child.signalCode, 'SIGKILL', proc.output());
  };
  const checkoutInput = (obligationId: string, amount: number) => ({
    obligationId,
    lineItems: [{ name: 'A letterpress print', amount, quantity: 2 }],
    currency: 'eur',
    successUrl: `${url}/paid`,
    cancelUrl: `${url}/cancelled`,
  });
  const sessionsFor = (obligationId: string) =>
    stripe.objects('checkout.session').filter((s) => (s as Loose).metadata?.obligationId === obligationId);

  beforeAll(async () => {
    stripe = await startStripeApiServer({ pendingRefunds: true });
    const stripeEnv = {
      STRIPE_SECRET_KEY: stripe.secretKey,
      STRIPE_WEBHOOK_SECRET: webhookSecret,
      STRIPE_API_BASE: stripe.url,
      PAYMENTS_WORKER_INTERVAL_MS: '100',
    };
    setup = await startTestInstance({
      env: { INSTANCE_ROLE: 'global', INSTANCE_NAME: 'Global', ...stripeEnv },
    });
    url = setup.url;
    stripe.addWebhookEndpoint({ url: `${url}/api/federation/stripe/webhook`, secret: webhookSecret });
    stripe.addWebhookEndpoint({
      url: `${url}/api/federation/stripe/webhook`,
      secret: webhookSecret,
      connect: true,
    });
    ada = browser(url);
    const signup = await ada.post('/api/auth/signup', {
      handle: 'ada',
      password: 'correct horse battery staple',
    });
    assert.equal(signup.status, 201, signup.text);
    adaAgentId = signup.json.agentId as string;
    await setup.stop();
    env = globalProcessEnv({ databaseUrl: setup.databaseUrl, dataDir: setup.dataDir, url }, stripeEnv);
  });
  afterAll(async () => {
    instance.proc?.child.kill('SIGKILL');
    await setup?.destroy();
    await stripe?.close();
  });

  test('given a process killed between Stripe creating the connected account and our record, when onboarding is asked again, then Stripe holds one account and the log one', async () => {
    const body = {
      country: 'DE',
      refreshUrl: `${url}/onboarding/again`,
      returnUrl: `${url}/onboarding/done`,
    };
    await run('payments.account.after-processor');
    await killedBy(() => ada.post('/api/federation/connect/onboarding', body));
    const made = () => stripe.objects('account').filter((a) => (a as Loose).metadata?.agentId === adaAgentId);
    assert.equal(made().length, 1, 'Stripe made the account before the crash');
    assert.deepEqual(await logOf('accountId', String(made()[0]!.id)), []);

    await run();
    const retried = await ada.post('/api/federation/connect/onboarding', body);
    assert.equal(retried.status, 200, retried.text);
    accountId = retried.json.result.accountId as string;
    assert.equal(accountId, made()[0]!.id);
    assert.equal(made().length, 1, 'no second account');
    assert.deepEqual(await logOf('accountId', accountId), ['payment.connected_account_created']);
    const keys = keysOf('/v1/accounts', (p) => p.metadata?.agentId === adaAgentId);
    assert.equal(keys.length, 2);
    assert.equal(new Set(keys).size, 1);
    assert.deepEqual(stripe.idempotency(keys[0]!), { requests: 2, executions: 1, replays: 1, mismatches: 0 });

    // Ada finishes onboarding; Stripe's account.updated makes her account chargeable.
    stripe.completeOnboarding(accountId);
    await eventually(
      'the account enabled',
      async () =>
        (await q('SELECT charges_enabled FROM rm_payment_accounts WHERE account_id = $1', [accountId]))[0]
          ?.charges_enabled === true,
    );
    await stripe.waitForDeliveries();
  });

  test('given a process killed between Stripe creating the Checkout Session and our record, when the checkout is started again, then Stripe holds one session and the log one', async () => {
    await run('payments.checkout.after-processor');
    await killedBy(() =>
      ada.post('/api/ops/svc.payments.start_checkout', checkoutInput(firstObligation, 1500)),
    );
    assert.equal(sessionsFor(firstObligation).length, 1, 'Stripe made the session before the crash');
    // The obligation was recorded first; the session never was.
    assert.deepEqual(await logOf('obligationId', firstObligation), ['payment.obligation_recorded']);

    await run();
    const retried = await ada.post(
      '/api/ops/svc.payments.start_checkout',
      checkoutInput(firstObligation, 1500),
    );
    // 200: the retry itself writes nothing new in its own append (the session is recorded by its inner step).
    assert.ok([200, 201].includes(retried.status), retried.text);
    firstSession = retried.json.result.sessionId as string;
    assert.equal(firstSession, sessionsFor(firstObligation)[0]!.id);
    assert.equal(sessionsFor(firstObligation).length, 1, 'no second session');
    assert.deepEqual(await logOf('obligationId', firstObligation), [
      'payment.obligation_recorded',
      'payment.checkout_session_created',
      'payment.obligation_checkout_opened',
    ]);
    const keys = keysOf('/v1/checkout/sessions', (p) => p.metadata?.obligationId === firstObligation);
    assert.equal(keys.length, 2);
    assert.equal(new Set(keys).size, 1);
    assert.deepEqual(stripe.idempotency(keys[0]!), { requests: 2, executions: 1, replays: 1, mismatches: 0 });
  });

  test('given a process killed before recording a Checkout Session that the buyer then pays, when it starts again, then the completion records the session and the receipt once, and the checkout started again answers that session', async () => {
    const obligationId = key('ob');
    stripe.setAutoDeliver(false);
    await run('payments.checkout.after-processor');
    await killedBy(() => ada.post('/api/ops/svc.payments.start_checkout', checkoutInput(obligationId, 900)));
    const [session] = sessionsFor(obligationId);
    assert.ok(session, 'Stripe made the session before the crash');
    // The buyer pays while the instance is down (the session's URL reached them some other way).
    await stripe.completeCheckout(String(session.id));
    assert.deepEqual(await logOf('obligationId', obligationId), ['payment.obligation_recorded']);

    await run();
    const completion = stripe
      .pendingEvents()
      .find((e) => e.type === 'checkout.session.completed' && e.data.object.id === session.id)!;
    await stripe.deliverPending();
    stripe.setAutoDeliver(true);
    const outcome = await eventually(
      'the completion processed',
      async () =>
        (
          await q(
            'SELECT outcome FROM rm_payment_webhook_events WHERE event_id = $1 AND processed_at IS NOT NULL',
            [completion.id],
          )
        )[0]?.outcome as string | undefined,
    );
    assert.equal(outcome, 'checkout_recovered');
    // Recorded from Stripe: the session, its completion and the receipt, the obligation settled in place.
    const receipt = (
      await q('SELECT * FROM rm_payment_receipts WHERE obligation_id = $1', [obligationId])
    )[0]!;
    assert.equal(Number(receipt.amount), 1800);
    assert.equal(receipt.session_id, session.id);
    assert.equal(receipt.connected_account_id, accountId);
    const obligation = (
      await q('SELECT * FROM rm_payment_obligations WHERE obligation_id = $1', [obligationId])
    )[0]!;
    assert.equal(obligation.receipt_id, receipt.receipt_id);
    // One append after the obligation (the order of one append's events is not the point here).
    const recovered = await logOf('obligationId', obligationId);
    assert.equal(recovered[0], 'payment.obligation_recorded');
    assert.deepEqual(recovered.slice(1).sort(), [
      'payment.checkout_completed',
      'payment.checkout_session_created',
      'payment.obligation_settled',
      'payment.receipt_settled',
      'payment.settlement_delivered',
    ]);

    // The seller's retry answers the recorded session: Stripe is not asked again, nothing is doubled.
    const retried = await ada.post('/api/ops/svc.payments.start_checkout', checkoutInput(obligationId, 900));
    // 200: the retry itself writes nothing new in its own append (the session is recorded by its inner step).
    assert.ok([200, 201].includes(retried.status), retried.text);
    assert.equal(retried.json.result.sessionId, session.id);
    const keys = keysOf('/v1/checkout/sessions', (p) => p.metadata?.obligationId === obligationId);
    assert.deepEqual(stripe.idempotency(keys[0]!), { requests: 1, executions: 1, replays: 0, mismatches: 0 });
    assert.equal(sessionsFor(obligationId).length, 1);
    // The seller's side notes the session it was answered; nothing else is written.
    const after = await logOf('obligationId', obligationId);
    assert.deepEqual(after.slice(6), ['payment.obligation_checkout_opened']);
    // A redelivery of the completion changes nothing.
    await stripe.deliver(String(completion.id));
    await stripe.waitForDeliveries();
    assert.deepEqual(await logOf('obligationId', obligationId), after);
  });

  test('given a process killed between Stripe making a refund and our record, when the refund is asked again, then Stripe holds one refund and the log one', async () => {
    await stripe.completeCheckout(firstSession);
    const receipt = await eventually(
      'the receipt',
      async () => (await q('SELECT * FROM rm_payment_receipts WHERE session_id = $1', [firstSession]))[0],
    );
    await stripe.waitForDeliveries();
    // Stripe's refund events are held: the retry, not a webhook, is what records the refund here.
    stripe.setAutoDeliver(false);
    const refund = { receiptId: receipt.receipt_id, amount: 300, idempotencyKey: key('rf') };
    await run('payments.refund.after-processor');
    await killedBy(() => ada.post('/api/federation/stripe/refund', refund));
    const refundsOf = () =>
      stripe.objects('refund').filter((r) => (r as Loose).metadata?.idempotencyKey === refund.idempotencyKey);
    assert.equal(refundsOf().length, 1, 'Stripe made the refund before the crash');
    // The request was recorded before Stripe was called; its outcome never was.
    assert.deepEqual(await logOf('idempotencyKey', refund.idempotencyKey), ['payment.refund_requested']);

    await run();
    const retried = await ada.post('/api/federation/stripe/refund', refund);
    assert.equal(retried.status, 200, retried.text);
    assert.equal(retried.json.result.status, 'already_requested');
    assert.equal(retried.json.result.refundId, refundsOf()[0]!.id);
    assert.equal(retried.json.result.remaining, 3000 - 300);
    assert.equal(refundsOf().length, 1, 'no second refund');
    assert.deepEqual(await logOf('idempotencyKey', refund.idempotencyKey), [
      'payment.refund_requested',
      'payment.refund_created',
    ]);
    const keys = keysOf('/v1/refunds', (p) => p.metadata?.idempotencyKey === refund.idempotencyKey);
    assert.equal(keys.length, 2);
    assert.equal(new Set(keys).size, 1);
    assert.deepEqual(stripe.idempotency(keys[0]!), { requests: 2, executions: 1, replays: 1, mismatches: 0 });
    await stripe.deliverPending();
    stripe.setAutoDeliver(true);
    await stripe.waitForDeliveries();
  });

  test('given a refund whose refund.updated arrives before our record of the refund, then the consumer records it from Stripe and the refund’s retry finds it recorded', async () => {
    const receipt = (await q('SELECT * FROM rm_payment_receipts WHERE session_id = $1', [firstSession]))[0]!;
    stripe.setAutoDeliver(false);
    const refund = { receiptId: receipt.receipt_id, amount: 200, idempotencyKey: key('rf') };
    await run('payments.refund.after-processor');
    await killedBy(() => ada.post('/api/federation/stripe/refund', refund));
    const [made] = stripe
      .objects('refund')
      .filter((r) => (r as Loose).metadata?.idempotencyKey === refund.idempotencyKey);
    assert.ok(made);
    assert.equal(made.status, 'pending');
    // The refund goes through at Stripe while we are down; only its refund.updated is sent.
    const updated = stripe.settleRefund(String(made.id), 'succeeded');
    assert.equal(updated.type, 'refund.updated');

    await run();
    await stripe.deliver(String(updated.id));
    const row = await eventually(
      'the refund recorded from its refund.updated',
      async () =>
        (
          await q(`SELECT * FROM rm_payment_refunds WHERE idempotency_key = $1 AND refund_id IS NOT NULL`, [
            refund.idempotencyKey,
          ])
        )[0],
    );
    assert.equal(row.refund_id, made.id);
    assert.equal(row.status, 'succeeded');
    assert.deepEqual(await logOf('idempotencyKey', refund.idempotencyKey), [
      'payment.refund_requested',
      'payment.refund_created',
    ]);
    const outcome = (
      await q('SELECT outcome FROM rm_payment_webhook_events WHERE event_id = $1', [updated.id])
    )[0];
    assert.equal(outcome?.outcome, 'refund_recorded');

    // The retry finds the refund recorded: Stripe is not asked again.
    const retried = await ada.post('/api/federation/stripe/refund', refund);
    assert.equal(retried.status, 200, retried.text);
    assert.equal(retried.json.result.status, 'already_requested');
    assert.equal(retried.json.result.refundId, made.id);
    assert.equal(retried.json.result.refundStatus, 'succeeded');
    const keys = keysOf('/v1/refunds', (p) => p.metadata?.idempotencyKey === refund.idempotencyKey);
    assert.deepEqual(stripe.idempotency(keys[0]!), { requests: 1, executions: 1, replays: 0, mismatches: 0 });
    // The older refund.created (pending) arrives last and changes nothing.
    await stripe.deliverPending();
    stripe.setAutoDeliver(true);
    await stripe.waitForDeliveries();
    await eventually(
      'every webhook processed',
      async () =>
        (await q('SELECT count(*) AS n FROM rm_payment_webhook_events WHERE processed_at IS NULL'))[0]!.n ===
        '0',
    );
    assert.deepEqual(await logOf('idempotencyKey', refund.idempotencyKey), [
      'payment.refund_requested',
      'payment.refund_created',
    ]);
    assert.equal(
      (await q('SELECT status FROM rm_payment_refunds WHERE refund_id = $1', [made.id]))[0]!.status,
      'succeeded',
    );
  });
});
