// Payments between real instances on loopback (docs/payments.md): a global instance G (the payment
// platform, its Stripe calls going to the loopback server that speaks Stripe's API) and two sovereign
// instances A (the seller's) and B, with sync running. A records an obligation, G opens the checkout, the
// buyer pays, Stripe's signed webhook reaches G, and G settles the obligation on A by a signed request —
// once, also when A was down, also when the webhook comes 20 times. What only G may do is refused
// elsewhere, and bad input is refused with its code and writes nothing.
import { browser, eventually, startStripeApiServer, type StripeApiServer } from '@tributary/test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { errorCodeOf, mcpClient } from '../e2e/mcp-helpers.js';
import {
  password,
  signedPost,
  startNode,
  startPeeredInstances,
  type Loose,
  type Node,
} from './federation-helpers.js';

const key = (prefix: string) => `${prefix}-${randomBytes(6).toString('hex')}`;

describe('payments through the global instance', () => {
  let stripe: StripeApiServer;
  let g: Node;
  let a: Node;
  let b: Node;
  const webhookSecret = `whsec_${randomBytes(16).toString('hex')}`;
  // The Connect endpoint has its own signing secret at Stripe, as in production.
  const connectSecret = `whsec_${randomBytes(16).toString('hex')}`;
  let sellerAccount = '';

  const count = async (n: Node, sql: string, values: unknown[] = []) =>
    Number((await n.instance.instance.pool.query(sql, values)).rows[0].n);
  /** Every webhook event the intake recorded is on the log (the worker moves them there). */
  const webhooksLogged = () =>
    eventually(
      'every recorded webhook event on the log',
      async () =>
        (await count(g, 'SELECT count(*) AS n FROM payment_webhook_inbox WHERE logged_at IS NULL')) === 0,
    );
  /** Stripe's webhooks delivered and every recorded event processed: the log is quiet. */
  const quiet = async () => {
    await stripe.waitForDeliveries();
    await webhooksLogged();
    await g.instance.instance.sequencer.drain();
    await eventually(
      'every recorded webhook event processed',
      async () =>
        (await count(g, 'SELECT count(*) AS n FROM rm_payment_webhook_events WHERE processed_at IS NULL')) ===
        0,
    );
    await eventually(
      'every settlement delivered',
      async () =>
        (await count(
          g,
          'SELECT count(*) AS n FROM rm_payment_checkouts WHERE receipt_id IS NOT NULL AND NOT delivered',
        )) === 0,
    );
  };
  /** Every payment event and read-model row on a node, once quiet: what a refusal must leave as it was. */
  const paymentFootprint = async (n: Node) => {
    await quiet();
    return footprintNow(n);
  };
  const footprintNow = async (n: Node) => ({
    events: await count(n, `SELECT count(*) AS n FROM events WHERE type LIKE 'payment.%'`),
    obligations: await count(n, 'SELECT count(*) AS n FROM rm_payment_obligations'),
    checkouts: await count(n, 'SELECT count(*) AS n FROM rm_payment_checkouts'),
    refunds: await count(n, 'SELECT count(*) AS n FROM rm_payment_refunds'),
    payouts: await count(n, 'SELECT count(*) AS n FROM rm_payment_payouts'),
    accounts: await count(n, 'SELECT count(*) AS n FROM rm_payment_accounts'),
    webhooks: await count(n, 'SELECT count(*) AS n FROM payment_webhook_inbox'),
  });
  const signed = (from: Node, to: Node, path: string, body: Loose) =>
    signedPost(from, `${to.url}${path}`, JSON.stringify(body));
  /** A's operator starts a checkout for something they sell (REST alias of the catalogue operation). */
  const startCheckout = (input: Loose) => a.operator.post('/api/ops/svc.payments.start_checkout', input);
  const checkoutInput = (obligationId: string, amount = 1000): Loose => ({
    obligationId,
    lineItems: [{ name: 'A hand-bound notebook', amount, quantity: 1 }],
    currency: 'eur',
    successUrl: `${a.url}/paid`,
    cancelUrl: `${a.url}/cancelled`,
  });
  const obligationOnA = async (obligationId: string) =>
    (
      await a.instance.instance.pool.query('SELECT * FROM rm_payment_obligations WHERE obligation_id = $1', [
        obligationId,
      ])
    ).rows[0] as Loose | undefined;
  const receiptOnG = async (obligationId: string) =>
    (
      await g.instance.instance.pool.query(
        'SELECT * FROM rm_payment_receipts WHERE requester_instance_id = $1 AND obligation_id = $2',
        [a.id, obligationId],
      )
    ).rows[0] as Loose | undefined;
  /** A checkout opened by A and paid by the buyer; resolves with its session and G's receipt. */
  const paidCheckout = async (amount = 1000) => {
    const obligationId = key('ob');
    const r = await startCheckout(checkoutInput(obligationId, amount));
    assert.equal(r.status, 201, r.text);
    await stripe.completeCheckout(r.json.result.sessionId);
    const receipt = await eventually('the receipt on G', () => receiptOnG(obligationId));
    return { obligationId, sessionId: r.json.result.sessionId as string, receipt };
  };

  beforeAll(async () => {
    stripe = await startStripeApiServer({ platformBalance: { eur: 1_000_000 } });
    [g, a, b] = await startPeeredInstances({
      env: { FEDERATION_SYNC: 'on', FEDERATION_SWEEP_MS: '200' },
      globalUrl: true,
      global: {
        name: 'Global',
        env: {
          STRIPE_SECRET_KEY: stripe.secretKey,
          STRIPE_WEBHOOK_SECRET: webhookSecret,
          STRIPE_CONNECT_WEBHOOK_SECRET: connectSecret,
          STRIPE_API_BASE: stripe.url,
          PAYMENTS_PAYOUT_CONFIRM_ABOVE: '50000',
          PAYMENTS_WORKER_INTERVAL_MS: '100',
        },
      },
      sovereigns: [
        { role: 'person', name: 'Alder' },
        { role: 'group', name: 'Birch' },
      ],
    });
    const hook = `${g.url}/api/federation/stripe/webhook`;
    stripe.addWebhookEndpoint({ url: hook, secret: webhookSecret });
    stripe.addWebhookEndpoint({ url: hook, secret: connectSecret, connect: true });

    // A's seller (its operator) is onboarded through G: G creates the connected account, Stripe's
    // account.updated (after onboarding) makes it able to take charges and be paid out.
    const onboard = await signed(a, g, '/api/federation/connect/onboarding', {
      agentId: a.operatorAgentId,
      country: 'DE',
      refreshUrl: `${a.url}/onboarding/refresh`,
      returnUrl: `${a.url}/onboarding/done`,
    });
    assert.equal(onboard.status, 200, onboard.text);
    sellerAccount = onboard.json.result.accountId;
    assert.match(onboard.json.result.url, /^https?:\/\//);
    stripe.completeOnboarding(sellerAccount);
    await eventually(
      'the connected account enabled on G',
      async () =>
        (await count(
          g,
          'SELECT count(*) AS n FROM rm_payment_accounts WHERE account_id = $1 AND charges_enabled AND payouts_enabled',
          [sellerAccount],
        )) === 1,
    );
  });
  afterAll(async () => {
    await Promise.all([g?.instance.destroy(), a?.instance.destroy(), b?.instance.destroy()]);
    await stripe?.close();
  });

  test('given a seller on A, when a buyer pays A’s checkout, then Stripe’s webhook settles the obligation on A exactly once', async () => {
    const { obligationId, sessionId, receipt } = await paidCheckout(1500);
    assert.equal(Number(receipt.amount), 1500);
    assert.equal(receipt.seller_agent_id, a.operatorAgentId);
    assert.equal(receipt.connected_account_id, sellerAccount);
    const settled = await eventually('the settlement on A', async () =>
      (await obligationOnA(obligationId))?.receipt_id ? obligationOnA(obligationId) : undefined,
    );
    assert.equal(settled!.receipt_id, receipt.receipt_id);
    assert.equal(settled!.session_id, sessionId);
    // The session went to Stripe with the seller's account as the charge's destination.
    const session = stripe.object(sessionId) as Loose;
    assert.equal(session.payment_status, 'paid');
    await eventually(
      'the delivery acknowledged on G',
      async () =>
        (await count(
          g,
          'SELECT count(*) AS n FROM rm_payment_checkouts WHERE obligation_id = $1 AND delivered',
          [obligationId],
        )) === 1,
    );
    assert.equal(
      await count(
        a,
        `SELECT count(*) AS n FROM events WHERE type = 'payment.obligation_settled' AND envelope::jsonb->'data'->>'obligationId' = $1`,
        [obligationId],
      ),
      1,
    );
    assert.equal(
      await count(
        g,
        `SELECT count(*) AS n FROM events WHERE type = 'payment.receipt_settled' AND envelope::jsonb->'data'->>'obligationId' = $1`,
        [obligationId],
      ),
      1,
    );
  });

  test('given the same checkout started twice with the same obligation id, then one Stripe session answers both; another body under that id is refused', async () => {
    const obligationId = key('ob');
    const first = await startCheckout(checkoutInput(obligationId, 700));
    assert.equal(first.status, 201, first.text);
    const again = await startCheckout(checkoutInput(obligationId, 700));
    assert.ok(again.status === 200 || again.status === 201, again.text);
    assert.equal(again.json.result.sessionId, first.json.result.sessionId);
    const before = await paymentFootprint(a);
    const other = await startCheckout(checkoutInput(obligationId, 701));
    assert.equal(other.status, 422, other.text);
    assert.equal(other.json.code, 'payments.idempotency_key_reused');
    assert.deepEqual(await paymentFootprint(a), before);
  });

  test('given a completed checkout’s webhook delivered 20 times and its events replayed newest first, then one receipt and one settlement', async () => {
    const { obligationId, sessionId } = await paidCheckout(900);
    await eventually('the settlement on A', async () => (await obligationOnA(obligationId))?.receipt_id);
    const completed = stripe.events.find(
      (e) => (e as Loose).type === 'checkout.session.completed' && (e as Loose).data.object.id === sessionId,
    ) as Loose;
    assert.ok(completed, 'Stripe sent checkout.session.completed');
    const deliveries = await stripe.deliver(completed.id, { times: 20 });
    assert.ok(deliveries.length >= 20);
    assert.ok(
      deliveries.every((d) => d.status === 200),
      JSON.stringify(deliveries.map((d) => d.status)),
    );
    // Every event so far again, newest first: the account's state is read from Stripe, not from the event.
    stripe.setAutoDeliver(false);
    for (const e of [...stripe.events].reverse()) await stripe.deliver((e as Loose).id);
    stripe.setAutoDeliver(true);
    await webhooksLogged();
    await g.instance.instance.sequencer.drain();
    await eventually(
      'every recorded event processed',
      async () =>
        (await count(g, 'SELECT count(*) AS n FROM rm_payment_webhook_events WHERE processed_at IS NULL')) ===
        0,
    );
    assert.equal(
      await count(
        g,
        `SELECT count(*) AS n FROM events WHERE type = 'payment.webhook_event_received' AND envelope::jsonb->'data'->>'eventId' = $1`,
        [completed.id],
      ),
      1,
    );
    assert.equal(
      await count(
        g,
        `SELECT count(*) AS n FROM events WHERE type = 'payment.receipt_settled' AND envelope::jsonb->'data'->>'obligationId' = $1`,
        [obligationId],
      ),
      1,
    );
    assert.equal(
      await count(
        a,
        `SELECT count(*) AS n FROM events WHERE type = 'payment.obligation_settled' AND envelope::jsonb->'data'->>'obligationId' = $1`,
        [obligationId],
      ),
      1,
    );
    assert.equal(
      await count(
        g,
        'SELECT count(*) AS n FROM rm_payment_accounts WHERE account_id = $1 AND charges_enabled',
        [sellerAccount],
      ),
      1,
    );
  });

  test('given A is down when the buyer pays, then G keeps the settlement and A gets it once when it is back', async () => {
    const obligationId = key('ob');
    const r = await startCheckout(checkoutInput(obligationId, 1200));
    assert.equal(r.status, 201, r.text);
    await a.instance.stop();
    await stripe.completeCheckout(r.json.result.sessionId);
    await eventually('the receipt on G', () => receiptOnG(obligationId));
    // G tried and could not deliver: the checkout stays undelivered.
    await new Promise((res) => setTimeout(res, 300));
    assert.equal(
      await count(
        g,
        'SELECT count(*) AS n FROM rm_payment_checkouts WHERE obligation_id = $1 AND delivered',
        [obligationId],
      ),
      0,
    );
    a.instance = await a.instance.startAgain();
    await eventually(
      'the settlement on A after its return',
      async () => (await obligationOnA(obligationId))?.receipt_id,
      90_000,
    );
    await eventually(
      'the delivery acknowledged',
      async () =>
        (await count(
          g,
          'SELECT count(*) AS n FROM rm_payment_checkouts WHERE obligation_id = $1 AND delivered',
          [obligationId],
        )) === 1,
    );
    assert.equal(
      await count(
        a,
        `SELECT count(*) AS n FROM events WHERE type = 'payment.obligation_settled' AND envelope::jsonb->'data'->>'obligationId' = $1`,
        [obligationId],
      ),
      1,
    );
  });

  test('given a receipt of 1000, when A refunds 300 then 700, then both are refunded; one more is refused and a repeat answers already_requested', async () => {
    const { receipt } = await paidCheckout(1000);
    const refund = (amount: number | undefined, idempotencyKey: string) =>
      signed(a, g, '/api/federation/stripe/refund', {
        receiptId: receipt.receipt_id,
        amount,
        idempotencyKey,
      });
    const k1 = key('rf');
    const first = await refund(300, k1);
    assert.equal(first.status, 200, first.text);
    assert.equal(first.json.result.status, 'requested');
    assert.equal(first.json.result.remaining, 700);
    const repeat = await refund(300, k1);
    assert.equal(repeat.status, 200, repeat.text);
    assert.equal(repeat.json.result.status, 'already_requested');
    assert.equal(repeat.json.result.refundId, first.json.result.refundId);
    const second = await refund(700, key('rf'));
    assert.equal(second.status, 200, second.text);
    assert.equal(second.json.result.remaining, 0);
    const before = await paymentFootprint(g);
    const more = await refund(1, key('rf'));
    assert.equal(more.status, 400, more.text);
    assert.equal(more.json.code, 'payments.refund_exceeds_remaining');
    const reused = await refund(5, k1);
    assert.equal(reused.status, 422, reused.text);
    assert.equal(reused.json.code, 'payments.idempotency_key_reused');
    assert.deepEqual(await paymentFootprint(g), before);
    // Stripe holds exactly the two refunds, for the receipt's payment.
    const refunds = stripe
      .objects('refund')
      .filter((x) => (x as Loose).payment_intent === receipt.payment_intent_id);
    assert.deepEqual(
      refunds.map((x) => (x as Loose).amount).sort((p, q) => p - q),
      [300, 700],
    );
  });

  test('given B asks to refund A’s receipt, then payments.receipt_not_found and nothing is written', async () => {
    const { receipt } = await paidCheckout(400);
    const before = await paymentFootprint(g);
    const r = await signed(b, g, '/api/federation/stripe/refund', {
      receiptId: receipt.receipt_id,
      idempotencyKey: key('rf'),
    });
    assert.equal(r.status, 404, r.text);
    assert.equal(r.json.code, 'payments.receipt_not_found');
    assert.deepEqual(await paymentFootprint(g), before);
  });

  test('given B names A’s seller in a checkout, an account read, a payout or a settlement, then B acts only on its own party and nothing of A’s is written, read or paid', async () => {
    const { receipt } = await paidCheckout(600);
    await quiet();
    const beforeG = await paymentFootprint(g);
    const beforeA = await footprintNow(a);
    const stripeCalls = stripe.requests.filter((r) => r.method === 'POST').length;
    // A checkout for A's seller, asked by B: G sees B's agent of that id, which has no account.
    const checkout = await signed(b, g, '/api/federation/stripe/checkout', {
      obligationId: key('ob'),
      sellerAgentId: a.operatorAgentId,
      lineItems: [{ name: 'x', amount: 100, quantity: 1 }],
      currency: 'eur',
      successUrl: `${b.url}/paid`,
      cancelUrl: `${b.url}/c`,
    });
    assert.equal(checkout.status, 400, checkout.text);
    assert.equal(checkout.json.code, 'payments.no_connected_account');
    // A's seller's account, read by B: B's party of that id has none.
    const account = await signed(b, g, '/api/federation/connect/account', { agentId: a.operatorAgentId });
    assert.equal(account.status, 200, account.text);
    assert.equal(account.json.result.account, null);
    // A payout to A's seller, asked by B: refused, nothing transferred.
    const payout = await signed(b, g, '/api/federation/connect/payout', {
      payeeAgentId: a.operatorAgentId,
      amount: 100,
      currency: 'eur',
      idempotencyKey: key('po'),
    });
    assert.equal(payout.status, 400, payout.text);
    assert.equal(payout.json.code, 'payments.no_connected_account');
    // A settlement of A's obligation, signed by B (not A's peer, let alone its global one): refused on A.
    const settlement = await signed(b, a, '/api/federation/stripe/settlement', {
      obligationId: receipt.obligation_id,
      receiptId: receipt.receipt_id,
      amount: 600,
      currency: 'eur',
      sessionId: receipt.session_id,
    });
    assert.equal(settlement.status, 401, settlement.text);
    assert.equal(settlement.json.code, 'federation.unknown_peer');
    assert.deepEqual(await paymentFootprint(g), beforeG);
    assert.deepEqual(await footprintNow(a), beforeA);
    assert.equal(stripe.requests.filter((r) => r.method === 'POST').length, stripeCalls);
  });

  test('given a sovereign instance, when anyone asks it for onboarding or a refund, then federation.global_only and nothing is written', async () => {
    const before = await paymentFootprint(a);
    const bySignature = await signed(g, a, '/api/federation/connect/onboarding', {
      agentId: 'someone',
      country: 'DE',
      refreshUrl: `${g.url}/r`,
      returnUrl: `${g.url}/d`,
    });
    assert.equal(bySignature.status, 403, bySignature.text);
    assert.equal(bySignature.json.code, 'federation.global_only');
    const bySession = await a.operator.post('/api/federation/connect/onboarding', {
      country: 'DE',
      refreshUrl: `${a.url}/r`,
      returnUrl: `${a.url}/d`,
    });
    assert.equal(bySession.status, 403, bySession.text);
    assert.equal(bySession.json.code, 'federation.global_only');
    const refund = await signed(g, a, '/api/federation/stripe/refund', {
      receiptId: 'rc-x',
      idempotencyKey: key('rf'),
    });
    assert.equal(refund.status, 403, refund.text);
    assert.equal(refund.json.code, 'federation.global_only');
    assert.deepEqual(await paymentFootprint(a), before);
  });

  test('given payouts from A, then paid once per key; above the threshold an operator of G confirms; a payee without an account is refused', async () => {
    const payout = (body: Loose) => signed(a, g, '/api/federation/connect/payout', body);
    const k = key('po');
    const paid = await payout({
      payeeAgentId: a.operatorAgentId,
      amount: 2500,
      currency: 'eur',
      idempotencyKey: k,
      reference: 'job 1',
    });
    assert.equal(paid.status, 200, paid.text);
    assert.equal(paid.json.result.status, 'paid');
    const again = await payout({
      payeeAgentId: a.operatorAgentId,
      amount: 2500,
      currency: 'eur',
      idempotencyKey: k,
      reference: 'job 1',
    });
    assert.equal(again.json.result.transferId, paid.json.result.transferId);
    assert.equal(
      stripe.objects('transfer').filter((t) => (t as Loose).id === paid.json.result.transferId).length,
      1,
    );
    const before = await paymentFootprint(g);
    const reused = await payout({
      payeeAgentId: a.operatorAgentId,
      amount: 2600,
      currency: 'eur',
      idempotencyKey: k,
      reference: 'job 1',
    });
    assert.equal(reused.status, 422, reused.text);
    assert.equal(reused.json.code, 'payments.idempotency_key_reused');
    const nobody = await payout({
      payeeAgentId: 'no-such-agent',
      amount: 100,
      currency: 'eur',
      idempotencyKey: key('po'),
    });
    assert.equal(nobody.status, 400, nobody.text);
    assert.equal(nobody.json.code, 'payments.no_connected_account');
    assert.deepEqual(await paymentFootprint(g), before);

    const big = key('po');
    const waiting = await payout({
      payeeAgentId: a.operatorAgentId,
      amount: 60_000,
      currency: 'eur',
      idempotencyKey: big,
    });
    assert.equal(waiting.json.result.status, 'awaiting_confirmation', waiting.text);
    const transfersBefore = stripe.objects('transfer').length;
    const confirmed = await g.operator.post('/api/ops/svc.payments.confirm_payout', {
      requesterInstanceId: a.id,
      idempotencyKey: big,
    });
    assert.equal(confirmed.status, 201, confirmed.text);
    assert.equal(confirmed.json.result.status, 'paid');
    assert.equal(stripe.objects('transfer').length, transfersBefore + 1);

    const poor = key('po');
    const short = await payout({
      payeeAgentId: a.operatorAgentId,
      amount: 49_999,
      currency: 'usd',
      idempotencyKey: poor,
    });
    assert.equal(short.status, 200, short.text);
    assert.equal(short.json.result.status, 'insufficient_funds');
  });

  test('given the wallet payout tool on A, then only an operator of A asks G to pay, and G pays once; a person of A who is not an operator is refused and nothing reaches G or Stripe', async () => {
    // A person of A who is not its operator (a session, and a svc.wallet.spend token).
    const ash = browser(a.url);
    const signup = await ash.post('/api/auth/signup', { handle: 'ash_payee', password, name: 'Ash' });
    assert.equal(signup.status, 201, signup.text);
    const token = await ash.post('/api/mcp/token', { label: 'spender', scopes: ['svc.wallet.spend'] });
    assert.equal(token.status, 201, token.text);
    const body = (payeeAgentId: string) => ({
      payeeAgentId,
      amount: 700,
      currency: 'eur',
      idempotencyKey: key('wp'),
      reference: 'job on A',
    });
    const beforeG = await paymentFootprint(g);
    const beforeA = await footprintNow(a);
    const stripeCalls = stripe.requests.filter((r) => r.method === 'POST').length;
    const client = await mcpClient(a.url, { bearer: token.json.token });
    for (const payee of [signup.json.agentId as string, a.operatorAgentId]) {
      const bySession = await ash.post('/api/ops/svc.wallet.start_payout', body(payee));
      assert.equal(bySession.status, 403, bySession.text);
      assert.equal(bySession.json.code, 'auth.controller_only');
      const byToken = await client.callTool({ name: 'svc.wallet.start_payout', arguments: body(payee) });
      assert.equal(errorCodeOf(byToken), 'auth.controller_only');
    }
    await client.close();
    assert.deepEqual(await paymentFootprint(g), beforeG);
    assert.deepEqual(await footprintNow(a), beforeA);
    assert.equal(stripe.requests.filter((r) => r.method === 'POST').length, stripeCalls);

    // A's operator names the payee; G sees A as the requester and pays once per key.
    const asked = body(a.operatorAgentId);
    const paid = await a.operator.post('/api/ops/svc.wallet.start_payout', asked);
    assert.equal(paid.status, 200, paid.text);
    assert.equal(paid.json.result.status, 'paid');
    const again = await a.operator.post('/api/ops/svc.wallet.start_payout', asked);
    assert.equal(again.json.result.transferId, paid.json.result.transferId);
    const row = (
      await g.instance.instance.pool.query(
        'SELECT * FROM rm_payment_payouts WHERE requester_instance_id = $1 AND idempotency_key = $2',
        [a.id, asked.idempotencyKey],
      )
    ).rows as Loose[];
    assert.equal(row.length, 1);
    assert.equal(row[0]!.payee_agent_id, a.operatorAgentId);
    assert.equal(
      stripe.objects('transfer').filter((t) => (t as Loose).id === paid.json.result.transferId).length,
      1,
    );
  });

  test('given bad amounts, currencies and URLs, then each is refused with its code and nothing is written on A or G', async () => {
    const beforeA = await paymentFootprint(a);
    const beforeG = await paymentFootprint(g);
    const cases: [Loose, string][] = [
      [{ lineItems: [{ name: 'x', amount: -5, quantity: 1 }] }, 'payments.amount_invalid'],
      [{ lineItems: [{ name: 'x', amount: 0, quantity: 1 }] }, 'payments.amount_invalid'],
      [{ lineItems: [{ name: 'x', amount: 10.5, quantity: 1 }] }, 'payments.amount_invalid'],
      [{ lineItems: [{ name: 'x', amount: 100_000_000, quantity: 1 }] }, 'payments.amount_invalid'],
      [{ lineItems: [{ name: 'x', amount: 99_999_999, quantity: 2 }] }, 'payments.amount_invalid'],
      [{ currency: 'xyz' }, 'payments.currency_unknown'],
      [{ currency: 'EUR' }, 'payments.currency_unknown'],
      [{ successUrl: 'https://evil.example/paid' }, 'payments.url_off_instance'],
      [{ cancelUrl: `${g.url}/cancel` }, 'payments.url_off_instance'],
      [{ obligationId: 'short' }, 'payments.idempotency_key_invalid'],
    ];
    for (const [change, code] of cases) {
      const r = await startCheckout({ ...checkoutInput(key('ob')), ...change });
      assert.equal(r.json?.code, code, `${JSON.stringify(change)}: ${r.text}`);
      assert.equal(r.status, 400);
    }
    // The same at G, signed by A (G checks again; it never trusts the sovereign's checks).
    const atG = await signed(a, g, '/api/federation/stripe/checkout', {
      obligationId: key('ob'),
      sellerAgentId: a.operatorAgentId,
      lineItems: [{ name: 'x', amount: 100, quantity: 1 }],
      currency: 'eur',
      successUrl: `${b.url}/paid`,
      cancelUrl: `${a.url}/c`,
    });
    assert.equal(atG.status, 400, atG.text);
    assert.equal(atG.json.code, 'payments.url_off_instance');
    assert.deepEqual(await paymentFootprint(a), beforeA);
    assert.deepEqual(await paymentFootprint(g), beforeG);
  });

  test('given webhooks with a bad, stale or wrong-secret signature or an altered body, then 400 payments.webhook_signature_invalid and nothing is recorded', async () => {
    const { sessionId } = await paidCheckout(300);
    const event = stripe.events.find(
      (e) => (e as Loose).type === 'checkout.session.completed' && (e as Loose).data.object.id === sessionId,
    ) as Loose;
    await g.instance.instance.sequencer.drain();
    const before = await paymentFootprint(g);
    const original = JSON.stringify(event);
    const altered = JSON.stringify({ ...event, id: `evt_${randomBytes(8).toString('hex')}` });
    const attempts = [
      await stripe.deliver(event.id, { timestampSeconds: Math.floor(Date.now() / 1000) - 3600 }),
      await stripe.deliver(event.id, { secret: `whsec_${randomBytes(16).toString('hex')}` }),
      await stripe.deliver(event.id, { body: altered, signBody: original }),
    ];
    for (const deliveries of attempts)
      for (const d of deliveries) assert.equal(d.status, 400, JSON.stringify(d));
    const raw = await fetch(`${g.url}/api/federation/stripe/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=00' },
      body: original,
    });
    assert.equal(raw.status, 400);
    assert.equal(((await raw.json()) as Loose).code, 'payments.webhook_signature_invalid');
    assert.deepEqual(await paymentFootprint(g), before);
  });

  test('given the platform’s and the Connect endpoint’s own signing secrets, then an event signed under either is recorded and one under neither is refused', async () => {
    const { sessionId } = await paidCheckout(400);
    await quiet();
    // The account's events came through the Connect endpoint, signed with its own secret, and took effect.
    const connectDelivery = stripe.deliveries.find(
      (d) => d.eventType === 'account.updated' && d.status === 200,
    );
    assert.ok(connectDelivery, 'an account.updated was delivered and accepted');
    const completion = stripe.events.find(
      (e) => (e as Loose).type === 'checkout.session.completed' && (e as Loose).data.object.id === sessionId,
    ) as Loose;
    const post = (body: string, secret: string) =>
      fetch(`${g.url}/api/federation/stripe/webhook`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'stripe-signature': stripe.signatureHeader(body, secret),
        },
        body,
      });
    const before = await paymentFootprint(g);
    // A platform event signed with the Connect secret (and the reverse) verifies: each is Stripe's.
    for (const secret of [webhookSecret, connectSecret]) {
      const r = await post(JSON.stringify(completion), secret);
      assert.equal(r.status, 200, await r.text());
    }
    const fresh = { ...completion, id: `evt_${randomBytes(12).toString('hex')}` };
    const underConnect = await post(JSON.stringify(fresh), connectSecret);
    assert.equal(underConnect.status, 200);
    assert.deepEqual(await underConnect.json(), { received: true, eventId: fresh.id, duplicate: false });
    const other = { ...completion, id: `evt_${randomBytes(12).toString('hex')}` };
    const refused = await post(JSON.stringify(other), `whsec_${randomBytes(16).toString('hex')}`);
    assert.equal(refused.status, 400);
    assert.equal(((await refused.json()) as Loose).code, 'payments.webhook_signature_invalid');
    await quiet();
    const after = await footprintNow(g);
    // The fresh event was recorded (one intake row) and processed (two events) and changed nothing else:
    // the checkout was already completed; the refused one wrote nothing.
    assert.deepEqual(after, { ...before, events: before.events + 2, webhooks: before.webhooks + 1 });
    assert.equal(
      await count(g, 'SELECT count(*) AS n FROM rm_payment_webhook_events WHERE event_id = $1', [other.id]),
      0,
    );
  });

  test('given an instance that is not a registered peer, then its signed payment requests are refused and nothing is written', async () => {
    const stranger = await startNode('person', 'Stranger', { FEDERATION_SYNC: 'off' });
    try {
      const before = await paymentFootprint(g);
      const r = await signed(stranger, g, '/api/federation/connect/payout', {
        amount: 100,
        currency: 'eur',
        idempotencyKey: key('po'),
      });
      assert.equal(r.status, 401, r.text);
      assert.equal(r.json.code, 'federation.unknown_peer');
      assert.deepEqual(await paymentFootprint(g), before);
    } finally {
      await stranger.instance.destroy();
    }
  });

  test('given no Stripe configuration, then payment routes answer payments.disabled and the status says so', async () => {
    const status = await fetch(`${a.url}/api/federation/stripe/status`);
    assert.deepEqual(await status.json(), { payments: 'disabled' });
    const gStatus = await fetch(`${g.url}/api/federation/stripe/status`);
    assert.deepEqual(await gStatus.json(), { payments: 'enabled' });
    const r = await fetch(`${a.url}/api/federation/stripe/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=00' },
      body: '{}',
    });
    assert.equal(r.status, 503);
    assert.equal(((await r.json()) as Loose).code, 'payments.disabled');
  });
});
