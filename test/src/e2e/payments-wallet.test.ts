// The wallet end to end on a global instance over PostgreSQL, with Stripe played by the local server that
// speaks its API (test/src/harness/stripe-api-server.ts) and sends its signed webhooks: the wallet tools
// through the official MCP SDK client and over HTTP (a read-only token can read and never spend: a stable
// code, nothing written), spending proposed by the assistant and confirmed only by the person, the
// person's export of their payment records, and the operators' reconciliation finding planted
// differences (over HTTP and with the `tributary` command).
import {
  runCli,
  proposeTestPlan,
  startStripeApiServer,
  startTestInstance,
  type StripeApiServer,
  type TestInstance,
} from '@tributary/test';
import assert from 'node:assert/strict';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, test } from 'vitest';
import {
  errorCodeOf,
  issueToken,
  mcpClient,
  signUp,
  structured,
  type Loose,
  type Person,
} from './mcp-helpers.js';

const WEBHOOK_SECRET = `whsec_${'w'.repeat(32)}`;

async function until<T>(
  what: string,
  probe: () => Promise<T | undefined | null | false>,
  ms = 30_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('the wallet', () => {
  let api: StripeApiServer;
  let stripe: Stripe;
  let instance: TestInstance;
  let operator: Person;
  let bob: Person;
  let accountId: string;
  let receiptId: string;
  const stripeEnv = () => ({
    STRIPE_SECRET_KEY: api.secretKey,
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_BASE: api.url,
    OUTBOUND_ALLOWED_ADDRESSES: '127.0.0.1',
  });

  const op = async (who: Person, name: string, input: unknown = {}) => {
    const r = await who.browser.post(`/api/ops/${name}`, input);
    assert.equal(r.status, 200, `${name}: ${r.status} ${r.text}`);
    return r.json.result as Loose;
  };
  const count = async (sql: string): Promise<number> =>
    Number((await instance.instance.pool.query<{ n: string }>(sql)).rows[0]!.n);
  const footprint = async () => ({
    events: await count('SELECT count(*) AS n FROM events'),
    obligations: await count('SELECT count(*) AS n FROM rm_payment_obligations'),
    payouts: await count('SELECT count(*) AS n FROM rm_payment_payouts'),
    stripeCalls: api.requests.filter((r) => r.method === 'POST').length,
  });

  beforeAll(async () => {
    api = await startStripeApiServer({ platformBalance: { eur: 1_000_000 } });
    stripe = new Stripe(api.secretKey, { ...api.clientOptions, maxNetworkRetries: 0 });
    instance = await startTestInstance({
      env: {
        INSTANCE_ROLE: 'global',
        ...stripeEnv(),
        PAYMENTS_WORKER_INTERVAL_MS: '100',
        PAYMENTS_RECONCILE_SECONDS: '0',
      },
    });
    // Stripe sends the platform's events and its connected accounts' to two endpoints; both are ours.
    const url = `${instance.url}/api/federation/stripe/webhook`;
    api.addWebhookEndpoint({ url, secret: WEBHOOK_SECRET });
    api.addWebhookEndpoint({ url, secret: WEBHOOK_SECRET, connect: true });
    operator = await signUp(instance.url, 'olga');
    bob = await signUp(instance.url, 'bob');

    // Bob sells: a connected account, onboarded at Stripe, its state brought back by the webhook.
    const onboarding = await bob.browser.post('/api/federation/connect/onboarding', {
      country: 'DE',
      refreshUrl: `${instance.url}/wallet/refresh`,
      returnUrl: `${instance.url}/wallet/done`,
    });
    assert.equal(onboarding.status, 200, onboarding.text);
    accountId = onboarding.json.result.accountId;
    api.completeOnboarding(accountId);
    await until('the account enabled', async () => {
      const a = await op(bob, 'svc.wallet.read_account');
      return a.account?.chargesEnabled === true && a;
    });
  });
  afterAll(async () => {
    await instance?.destroy();
    await api?.close();
  });

  test('the wallet reads show what was taken, refunded and paid out, over MCP with svc.wallet.read and over HTTP', async () => {
    const spender = await issueToken(bob, { scopes: ['svc.wallet.spend'] });
    const seller = await mcpClient(instance.url, { bearer: spender.token });
    const started = structured(
      await seller.callTool({
        name: 'svc.payments.start_checkout',
        arguments: {
          obligationId: 'order-0001-bread',
          lineItems: [{ name: 'Bread', amount: 450, quantity: 2 }],
          currency: 'eur',
          successUrl: `${instance.url}/shop/paid`,
          cancelUrl: `${instance.url}/shop/cancelled`,
        },
      }),
    );
    await seller.close();
    assert.match(started.sessionId, /^cs_test_/);
    await api.completeCheckout(started.sessionId);
    const receipts = await until('the receipt', async () => {
      const r = await op(bob, 'svc.wallet.list_receipts');
      return r.receipts.length === 1 && r.obligations[0]?.state === 'settled' && r;
    });
    receiptId = receipts.receipts[0].receiptId;
    assert.equal(receipts.receipts[0].amount, 900);
    assert.equal(receipts.receipts[0].currency, 'eur');
    assert.equal(receipts.obligations[0].obligationId, 'order-0001-bread');

    // A partial refund (by the global instance's own people, at its route) shows on the receipt.
    const refund = await bob.browser.post('/api/federation/stripe/refund', {
      receiptId,
      amount: 300,
      idempotencyKey: 'refund-0001-bread',
    });
    assert.equal(refund.status, 200, refund.text);

    const reader = await issueToken(bob, { scopes: ['svc.wallet.read'] });
    const client = await mcpClient(instance.url, { bearer: reader.token });
    const tools = (await client.listTools()).tools.map((t) => t.name);
    for (const name of [
      'svc.wallet.list_receipts',
      'svc.wallet.list_payouts',
      'svc.wallet.read_balance',
      'svc.wallet.read_account',
    ])
      assert.ok(tools.includes(name), name);
    assert.ok(!tools.includes('svc.wallet.start_payout'));
    assert.ok(!tools.includes('svc.payments.start_checkout'));
    const viaMcp = structured(await client.callTool({ name: 'svc.wallet.list_receipts', arguments: {} }));
    assert.equal(viaMcp.receipts[0].receiptId, receiptId);
    assert.equal(viaMcp.receipts[0].refunded, 300);
    const balance = structured(await client.callTool({ name: 'svc.wallet.read_balance', arguments: {} }));
    assert.deepEqual(
      balance.balances.find((b: Loose) => b.currency === 'eur'),
      { currency: 'eur', received: 900, refunded: 300, paidOut: 0 },
    );
    const account = structured(await client.callTool({ name: 'svc.wallet.read_account', arguments: {} }));
    assert.deepEqual(
      { ...account, account: { ...account.account, createdAt: undefined, updatedAt: undefined } },
      {
        paymentsEnabled: true,
        platform: true,
        account: {
          accountId,
          country: 'DE',
          detailsSubmitted: true,
          chargesEnabled: true,
          payoutsEnabled: true,
          createdAt: undefined,
          updatedAt: undefined,
        },
      },
    );
    const badPage = await client.callTool({ name: 'svc.wallet.list_payouts', arguments: { limit: 0 } });
    assert.equal(errorCodeOf(badPage), 'input.invalid');
    await client.close();

    // Over HTTP, a session holds its person's scopes; another person sees none of Bob's records.
    const httpBalance = await op(bob, 'svc.wallet.read_balance');
    assert.deepEqual(httpBalance, balance);
    const olgas = await op(operator, 'svc.wallet.list_receipts');
    assert.deepEqual([olgas.receipts, olgas.obligations], [[], []]);
  });

  test('a read-only token cannot spend: insufficient scope, nothing written, Stripe never called', async () => {
    const reader = await issueToken(bob, {
      scopes: ['svc.wallet.read', 'svc.agent.read', 'svc.agent.write', 'svc.assistant.write'],
    });
    const client = await mcpClient(instance.url, { bearer: reader.token });
    const before = await footprint();
    const checkout = await client.callTool({
      name: 'svc.payments.start_checkout',
      arguments: {
        obligationId: 'order-0002-denied',
        lineItems: [{ name: 'Cake', amount: 900, quantity: 1 }],
        currency: 'eur',
        successUrl: `${instance.url}/shop/paid`,
        cancelUrl: `${instance.url}/shop/cancelled`,
      },
    });
    assert.equal(errorCodeOf(checkout), 'auth.insufficient_scope');
    const payout = await client.callTool({
      name: 'svc.wallet.start_payout',
      arguments: {
        payeeAgentId: bob.agentId,
        amount: 500,
        currency: 'eur',
        idempotencyKey: 'payout-denied-01',
        reference: 'job 1',
      },
    });
    assert.equal(errorCodeOf(payout), 'auth.insufficient_scope');
    await client.close();
    // The tokens endpoint refuses a malformed wallet scope outright.
    const bogus = await bob.browser.post('/api/mcp/token', { label: 'x', scopes: ['svc.wallet.write'] });
    assert.equal(bogus.status, 400);
    const after = await footprint();
    // Only the provenance of the two refused calls is recorded; nothing of payments, and no call to Stripe.
    assert.equal(after.obligations, before.obligations);
    assert.equal(after.payouts, before.payouts);
    assert.equal(after.stripeCalls, before.stripeCalls);
    assert.equal(
      await count(
        `SELECT count(*) AS n FROM events WHERE type LIKE 'payment.%' AND position > (SELECT max(position) - ${after.events - before.events} FROM events)`,
      ),
      0,
    );
  });

  test('a person who is not an operator cannot pay anyone out, themselves included: auth.controller_only, nothing written, Stripe never called', async () => {
    const spender = await issueToken(bob, { scopes: ['svc.wallet.spend', 'svc.wallet.read'] });
    const before = await footprint();
    const body = (key: string, payeeAgentId?: string) => ({
      ...(payeeAgentId ? { payeeAgentId } : {}),
      amount: 1000,
      currency: 'eur',
      idempotencyKey: key,
      reference: 'my own job',
    });
    // The route, by session: with or without naming a payee (themselves).
    for (const [key, payee] of [
      ['self-pay-route-01', undefined],
      ['self-pay-route-02', bob.agentId],
    ] as const) {
      const r = await bob.browser.post('/api/federation/connect/payout', body(key, payee));
      assert.equal(r.status, 403, r.text);
      assert.equal(r.json.code, 'auth.controller_only');
    }
    // The wallet tool, by session over HTTP and by a svc.wallet.spend token over MCP.
    const bySession = await bob.browser.post(
      '/api/ops/svc.wallet.start_payout',
      body('self-pay-tool-01', bob.agentId),
    );
    assert.equal(bySession.status, 403, bySession.text);
    assert.equal(bySession.json.code, 'auth.controller_only');
    const client = await mcpClient(instance.url, { bearer: spender.token });
    assert.ok(!(await client.listTools()).tools.some((t) => t.name === 'svc.wallet.start_payout'));
    const viaMcp = await client.callTool({
      name: 'svc.wallet.start_payout',
      arguments: body('self-pay-tool-03', bob.agentId),
    });
    assert.equal(errorCodeOf(viaMcp), 'auth.controller_only');
    await client.close();
    const after = await footprint();
    assert.equal(after.payouts, before.payouts);
    assert.equal(after.stripeCalls, before.stripeCalls);
    assert.equal(
      await count(
        `SELECT count(*) AS n FROM events WHERE type LIKE 'payment.%' AND position > (SELECT max(position) - ${after.events - before.events} FROM events)`,
      ),
      0,
    );
    // An operator must name the payee: refused with its field, nothing written.
    const unnamed = await operator.browser.post('/api/federation/connect/payout', body('op-unnamed-01'));
    assert.equal(unnamed.status, 400, unnamed.text);
    assert.equal(unnamed.json.code, 'input.invalid');
    assert.equal((await footprint()).payouts, before.payouts);
  });

  test('the assistant proposes a payout to Bob; a token may not confirm it, whatever its scopes; the operator signed in does, once', async () => {
    const plan = await proposeTestPlan(instance.instance.services, operator, {
      text: 'pay Bob for the delivery job',
      steps: [
        {
          tool: 'svc.wallet.start_payout',
          args: {
            payeeAgentId: bob.agentId,
            amount: 1500,
            currency: 'eur',
            idempotencyKey: 'payout-job-0001',
            reference: 'delivery job',
          },
        },
      ],
    });
    const everything = await issueToken(operator, {
      scopes: ['svc.assistant.write', 'svc.assistant.read', 'svc.wallet.spend', 'svc.wallet.read'],
    });
    const client = await mcpClient(instance.url, { bearer: everything.token });
    const before = await footprint();
    const refused = await client.callTool({
      name: 'svc.assistant.confirm_plan',
      arguments: { planHash: plan.hash },
    });
    assert.equal(errorCodeOf(refused), 'assistant.spend_needs_person');
    assert.deepEqual((refused as Loose).structuredContent.error.steps, [
      { step: 1, tool: 'svc.wallet.start_payout' },
    ]);
    const mid = await footprint();
    assert.equal(mid.payouts, before.payouts);
    assert.equal(mid.stripeCalls, before.stripeCalls);
    assert.equal(
      await count(`SELECT count(*) AS n FROM events WHERE type = 'assistant.plan_confirmed'`),
      0,
      'the plan was not confirmed',
    );
    // Settings cannot let it run unconfirmed either.
    const settings = await operator.browser.post('/api/autobot/settings', {
      autoRunReadTools: ['svc.wallet.start_payout'],
    });
    assert.equal(settings.status, 400);
    assert.equal(settings.json.code, 'assistant.auto_run_write_tool');
    await client.close();

    const confirmed = await operator.browser.post('/api/autobot/confirm', { planHash: plan.hash });
    assert.equal(confirmed.status, 200, confirmed.text);
    assert.equal(confirmed.json.result.status, 'completed');
    assert.deepEqual(
      (confirmed.json.result.steps as Loose[]).map((x) => [x.tool, x.status]),
      [['svc.wallet.start_payout', 'ran']],
    );
    const payouts = await op(bob, 'svc.wallet.list_payouts');
    assert.equal(payouts.payouts.length, 1);
    assert.equal(payouts.payouts[0].status, 'paid');
    assert.equal(payouts.payouts[0].amount, 1500);
    assert.match(payouts.payouts[0].transferId, /^tr_/);
    assert.equal(
      api.objects('transfer').filter((t) => t.destination === accountId && !t.source_transaction).length,
      1,
    );
    // The same key again pays nothing more.
    const again = await op(operator, 'svc.wallet.start_payout', {
      payeeAgentId: bob.agentId,
      amount: 1500,
      currency: 'eur',
      idempotencyKey: 'payout-job-0001',
      reference: 'delivery job',
    });
    assert.equal(again.status, 'paid');
    assert.equal(
      api.objects('transfer').filter((t) => t.destination === accountId && !t.source_transaction).length,
      1,
    );
  });

  test("the person's export holds their payment records", async () => {
    const r = await bob.browser.post('/api/ops/svc.account.export_data', {});
    assert.equal(r.status, 200, r.text);
    const payments = r.json.result.payments as Loose[];
    const own = payments.find((p) => p.agentId === bob.agentId)!;
    assert.deepEqual(
      own.receipts.map((x: Loose) => [x.receiptId, x.amount, x.refunded]),
      [[receiptId, 900, 300]],
    );
    assert.deepEqual(
      own.obligations.map((x: Loose) => [x.obligationId, x.state]),
      [['order-0001-bread', 'settled']],
    );
    assert.deepEqual(
      own.payouts.map((x: Loose) => [x.idempotencyKey, x.status]),
      [['payout-job-0001', 'paid']],
    );
    assert.equal(own.connectedAccount.accountId, accountId);
    assert.ok(own.balances.some((b: Loose) => b.currency === 'eur' && b.paidOut === 1500));
    // A token, whatever its scopes, never exports.
    const token = await issueToken(bob, { scopes: ['svc.account.export', 'svc.wallet.read'] });
    const client = await mcpClient(instance.url, { bearer: token.token });
    assert.equal(
      errorCodeOf(await client.callTool({ name: 'svc.account.export_data', arguments: {} })),
      'auth.tool_not_enabled',
    );
    await client.close();
  });

  test('reconciliation finds a paid checkout whose webhook never came and a transfer we never made', async () => {
    const clean = await op(operator, 'svc.payments.reconcile');
    assert.deepEqual(clean.differences, []);
    assert.ok(
      clean.checked.checkoutSessions >= 1 && clean.checked.refunds >= 1 && clean.checked.transfers >= 1,
    );
    assert.equal(
      (await bob.browser.post('/api/ops/svc.payments.reconcile', {})).json.code,
      'auth.controller_only',
    );

    // Planted: a checkout paid at Stripe whose events are held back, and a transfer made outside Tributary.
    api.setAutoDeliver(false);
    const spender = await issueToken(bob, { scopes: ['svc.wallet.spend'] });
    const seller = await mcpClient(instance.url, { bearer: spender.token });
    const started = structured(
      await seller.callTool({
        name: 'svc.payments.start_checkout',
        arguments: {
          obligationId: 'order-0003-lost-webhook',
          lineItems: [{ name: 'Jam', amount: 700, quantity: 1 }],
          currency: 'eur',
          successUrl: `${instance.url}/shop/paid`,
          cancelUrl: `${instance.url}/shop/cancelled`,
        },
      }),
    );
    await seller.close();
    await api.completeCheckout(started.sessionId);
    const stray = await stripe.transfers.create({ amount: 123, currency: 'eur', destination: accountId });

    const found = await op(operator, 'svc.payments.reconcile', { sinceHours: 1 });
    assert.deepEqual(
      found.differences.map((d: Loose) => [d.difference, d.objectId, d.recordId]).sort(),
      [
        ['checkout.paid_not_recorded', started.sessionId, 'order-0003-lost-webhook'],
        ['transfer.unknown', stray.id, null],
      ].sort(),
    );

    const cli = await runCli(instance, ['payments', 'reconcile', '--json'], stripeEnv());
    assert.equal(cli.code, 1, cli.stderr);
    const printed = JSON.parse(cli.stdout) as Loose;
    assert.deepEqual(printed.differences.map((d: Loose) => d.difference).sort(), [
      'checkout.paid_not_recorded',
      'transfer.unknown',
    ]);

    // The held events arrive: the checkout is recorded and only the stray transfer remains.
    await api.deliverPending();
    api.setAutoDeliver(true);
    await until('the late receipt', async () => {
      const r = await op(bob, 'svc.wallet.list_receipts');
      return r.receipts.length === 2;
    });
    const after = await op(operator, 'svc.payments.reconcile');
    assert.deepEqual(
      after.differences.map((d: Loose) => d.difference),
      ['transfer.unknown'],
    );
    const text = await runCli(instance, ['payments', 'reconcile'], stripeEnv());
    assert.equal(text.code, 1);
    assert.match(text.stdout, new RegExp(`transfer\\.unknown\\t${stray.id}`));
    assert.match(text.stdout, /reconcile: 1 difference/);
  });
});
