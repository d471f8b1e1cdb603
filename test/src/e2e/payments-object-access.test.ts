// Whose payment records a person of the global instance may act on (docs/payments.md#who-may-do-what):
// a seller (Bob) with a connected account and a paid receipt, another person (Mallory) and the operator
// (Olga), on a global instance over PostgreSQL with Stripe played by the local server that speaks its API.
// Mallory tries each payments operation on Bob's records: a refund of his receipt is the same 404 as a
// receipt that does not exist, nothing is written and Stripe is not called; the others act on Mallory's
// own records or are refused. The operator refunds any receipt only through the operators' operation.
import {
  startStripeApiServer,
  startTestInstance,
  type StripeApiServer,
  type TestInstance,
} from '@tributary/test';
import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { errorCodeOf, issueToken, mcpClient, signUp, type Loose, type Person } from './mcp-helpers.js';

const WEBHOOK_SECRET = `whsec_${'o'.repeat(32)}`;

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

describe('payments: object-level checks on the global instance', () => {
  let api: StripeApiServer;
  let instance: TestInstance;
  let olga: Person;
  let bob: Person;
  let mallory: Person;
  let bobsAccount: string;
  let receiptId: string;

  const op = async (who: Person, name: string, input: unknown = {}) => {
    const r = await who.browser.post(`/api/ops/${name}`, input);
    assert.ok(r.status === 200 || r.status === 201, `${name}: ${r.status} ${r.text}`);
    return r.json.result as Loose;
  };
  const count = async (sql: string): Promise<number> =>
    Number((await instance.instance.pool.query<{ n: string }>(sql)).rows[0]!.n);
  /** Stripe's webhooks delivered, recorded and processed: nothing more is on its way. */
  const quiet = async () => {
    await api.waitForDeliveries();
    await until(
      'every webhook event recorded and processed',
      async () =>
        (await count('SELECT count(*) AS n FROM payment_webhook_inbox WHERE logged_at IS NULL')) === 0 &&
        (await count('SELECT count(*) AS n FROM rm_payment_webhook_events WHERE processed_at IS NULL')) === 0,
    );
  };
  /** What a refusal must leave as it was: every payment event and row, and every call to Stripe. */
  const footprint = async () => {
    await quiet();
    return footprintNow();
  };
  const footprintNow = async () => ({
    events: await count(`SELECT count(*) AS n FROM events WHERE type LIKE 'payment.%'`),
    obligations: await count('SELECT count(*) AS n FROM rm_payment_obligations'),
    checkouts: await count('SELECT count(*) AS n FROM rm_payment_checkouts'),
    refunds: await count('SELECT count(*) AS n FROM rm_payment_refunds'),
    payouts: await count('SELECT count(*) AS n FROM rm_payment_payouts'),
    accounts: await count('SELECT count(*) AS n FROM rm_payment_accounts'),
    stripeCalls: api.requests.filter((r) => r.method === 'POST').length,
  });
  const refundsAtStripe = () => api.objects('refund').length;

  beforeAll(async () => {
    api = await startStripeApiServer({ platformBalance: { eur: 1_000_000 } });
    instance = await startTestInstance({
      env: {
        INSTANCE_ROLE: 'global',
        STRIPE_SECRET_KEY: api.secretKey,
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
        STRIPE_API_BASE: api.url,
        OUTBOUND_ALLOWED_ADDRESSES: '127.0.0.1',
        PAYMENTS_WORKER_INTERVAL_MS: '100',
        PAYMENTS_RECONCILE_SECONDS: '0',
      },
    });
    const url = `${instance.url}/api/federation/stripe/webhook`;
    api.addWebhookEndpoint({ url, secret: WEBHOOK_SECRET });
    api.addWebhookEndpoint({ url, secret: WEBHOOK_SECRET, connect: true });
    olga = await signUp(instance.url, 'olga'); // the first account: the instance's operator
    bob = await signUp(instance.url, 'bob');
    mallory = await signUp(instance.url, 'mallory');

    // Bob sells: an onboarded connected account and one paid checkout, settled into a receipt.
    const onboarding = await bob.browser.post('/api/federation/connect/onboarding', {
      country: 'DE',
      refreshUrl: `${instance.url}/wallet/refresh`,
      returnUrl: `${instance.url}/wallet/done`,
    });
    assert.equal(onboarding.status, 200, onboarding.text);
    bobsAccount = onboarding.json.result.accountId;
    api.completeOnboarding(bobsAccount);
    await until('Bob’s account enabled', async () => {
      const a = await op(bob, 'svc.wallet.read_account');
      return a.account?.chargesEnabled === true && a;
    });
    const started = await op(bob, 'svc.payments.start_checkout', {
      obligationId: 'order-bob-0001',
      lineItems: [{ name: 'Bread', amount: 1000, quantity: 1 }],
      currency: 'eur',
      successUrl: `${instance.url}/shop/paid`,
      cancelUrl: `${instance.url}/shop/cancelled`,
    });
    await api.completeCheckout(started.sessionId);
    const receipts = await until('Bob’s receipt', async () => {
      const r = await op(bob, 'svc.wallet.list_receipts');
      return r.receipts.length === 1 && r;
    });
    receiptId = receipts.receipts[0].receiptId;
  });
  afterAll(async () => {
    await instance?.destroy();
    await api?.close();
  });

  test('given Bob’s receipt, when Mallory (or the operator, at the sellers’ route) asks to refund it, then the same 404 as for no receipt, nothing written, Stripe not called', async () => {
    const before = await footprint();
    const refundsBefore = refundsAtStripe();
    const ask = (who: Person, id: string, idempotencyKey: string) =>
      who.browser.post('/api/federation/stripe/refund', { receiptId: id, amount: 100, idempotencyKey });
    const none = await ask(mallory, 'rc-no-such-receipt', 'refund-mallory-0000');
    assert.equal(none.status, 404, none.text);
    assert.equal(none.json.code, 'payments.receipt_not_found');
    for (const [who, key] of [
      [mallory, 'refund-mallory-0001'],
      [mallory, 'refund-mallory-0002'],
      [olga, 'refund-olga-00000001'],
    ] as const) {
      const r = await ask(who, receiptId, key);
      assert.equal(r.status, none.status, r.text);
      assert.equal(r.json.code, none.json.code);
    }
    // Without an amount (the whole of what is left) too.
    const all = await mallory.browser.post('/api/federation/stripe/refund', {
      receiptId,
      idempotencyKey: 'refund-mallory-0003',
    });
    assert.equal(all.status, 404, all.text);
    assert.equal(all.json.code, 'payments.receipt_not_found');
    // The operators' operation, by a token of Mallory's with the spending scope and by her session.
    const spender = await issueToken(mallory, { scopes: ['svc.wallet.spend'] });
    const client = await mcpClient(instance.url, { bearer: spender.token });
    const byTool = await client.callTool({
      name: 'svc.payments.operator_refund',
      arguments: { receiptId, amount: 100, idempotencyKey: 'refund-mallory-0004' },
    });
    assert.equal(errorCodeOf(byTool), 'auth.insufficient_scope');
    await client.close();
    const byRest = await mallory.browser.post('/api/ops/svc.payments.operator_refund', {
      receiptId,
      amount: 100,
      idempotencyKey: 'refund-mallory-0005',
    });
    assert.equal(byRest.status, 403, byRest.text);
    assert.equal(byRest.json.code, 'auth.controller_only');
    assert.deepEqual(await footprint(), before);
    assert.equal(refundsAtStripe(), refundsBefore);
    const bobs = await op(bob, 'svc.wallet.list_receipts');
    assert.equal(bobs.receipts[0].refunded, 0);
  });

  test('given Bob’s receipt, then Bob refunds his own sale at the route and the operator refunds through the operators’ operation', async () => {
    const refundsBefore = refundsAtStripe();
    const own = await bob.browser.post('/api/federation/stripe/refund', {
      receiptId,
      amount: 100,
      idempotencyKey: 'refund-bob-00000001',
    });
    assert.equal(own.status, 200, own.text);
    assert.equal(own.json.result.status, 'requested');
    assert.equal(own.json.result.remaining, 900);
    const byOperator = await olga.browser.post('/api/ops/svc.payments.operator_refund', {
      receiptId,
      amount: 200,
      idempotencyKey: 'refund-olga-00000002',
    });
    assert.equal(byOperator.status, 201, byOperator.text);
    assert.equal(byOperator.json.result.status, 'requested');
    assert.equal(byOperator.json.result.remaining, 700);
    assert.equal(refundsAtStripe(), refundsBefore + 2);
    // The operators' operation finds nothing for a receipt that does not exist, and calls nobody.
    const before = await footprint();
    const none = await olga.browser.post('/api/ops/svc.payments.operator_refund', {
      receiptId: 'rc-no-such-receipt',
      idempotencyKey: 'refund-olga-00000003',
    });
    assert.equal(none.status, 404, none.text);
    assert.equal(none.json.code, 'payments.receipt_not_found');
    assert.deepEqual(await footprint(), before);
  });

  test('given Bob’s records, when Mallory names Bob in every other payments operation, then she acts on her own records or is refused, and nothing of Bob’s is written or shown', async () => {
    const before = await footprint();
    // A checkout for Bob as seller: a person here always sells as themselves (Mallory has no account).
    const checkout = await mallory.browser.post('/api/federation/stripe/checkout', {
      obligationId: 'order-mallory-0001',
      sellerAgentId: bob.agentId,
      lineItems: [{ name: 'Bread', amount: 1000, quantity: 1 }],
      currency: 'eur',
      successUrl: `${instance.url}/shop/paid`,
      cancelUrl: `${instance.url}/shop/cancelled`,
    });
    assert.equal(checkout.status, 400, checkout.text);
    assert.equal(checkout.json.code, 'payments.no_connected_account');
    // Acting as Bob's agent: not hers to act for.
    const asBob = await mallory.browser.post('/api/ops/svc.payments.start_checkout', {
      targetAgentId: bob.agentId,
      obligationId: 'order-mallory-0002',
      lineItems: [{ name: 'Bread', amount: 1000, quantity: 1 }],
      currency: 'eur',
      successUrl: `${instance.url}/shop/paid`,
      cancelUrl: `${instance.url}/shop/cancelled`,
    });
    assert.equal(asBob.status, 404, asBob.text);
    assert.equal(asBob.json.code, 'agent.not_found');
    // A payout to Bob (or to herself): operators only.
    for (const payee of [bob.agentId, mallory.agentId]) {
      const payout = await mallory.browser.post('/api/federation/connect/payout', {
        payeeAgentId: payee,
        amount: 100,
        currency: 'eur',
        idempotencyKey: `payout-mallory-${payee.slice(0, 8)}`,
      });
      assert.equal(payout.status, 403, payout.text);
      assert.equal(payout.json.code, 'auth.controller_only');
      const tool = await mallory.browser.post('/api/ops/svc.wallet.start_payout', {
        payeeAgentId: payee,
        amount: 100,
        currency: 'eur',
        idempotencyKey: `wallet-mallory-${payee.slice(0, 8)}`,
      });
      assert.equal(tool.status, 403, tool.text);
      assert.equal(tool.json.code, 'auth.controller_only');
    }
    const confirm = await mallory.browser.post('/api/ops/svc.payments.confirm_payout', {
      requesterInstanceId: 'anything',
      idempotencyKey: 'payout-anything-01',
    });
    assert.equal(confirm.status, 403, confirm.text);
    assert.equal(confirm.json.code, 'auth.controller_only');
    // Bob's connected account, named: Mallory is answered about her own (none).
    const account = await mallory.browser.post('/api/federation/connect/account', { agentId: bob.agentId });
    assert.equal(account.status, 200, account.text);
    assert.equal(account.json.result.account, null);
    assert.deepEqual(await footprint(), before);
    // The wallet's reads show Mallory her own records only.
    const receipts = await op(mallory, 'svc.wallet.list_receipts');
    assert.deepEqual([receipts.receipts, receipts.obligations], [[], []]);
    assert.deepEqual((await op(mallory, 'svc.wallet.list_payouts')).payouts, []);
    assert.deepEqual((await op(mallory, 'svc.wallet.read_balance')).balances, []);
    assert.equal((await op(mallory, 'svc.wallet.read_account')).account, null);
    const asBobRead = await mallory.browser.post('/api/ops/svc.wallet.list_receipts', {
      targetAgentId: bob.agentId,
    });
    assert.equal(asBobRead.status, 404, asBobRead.text);
    assert.equal(asBobRead.json.code, 'agent.not_found');
    // Onboarding naming Bob makes (or links) Mallory's own account, never touches Bob's.
    const onboarding = await mallory.browser.post('/api/federation/connect/onboarding', {
      agentId: bob.agentId,
      country: 'FR',
      refreshUrl: `${instance.url}/wallet/refresh`,
      returnUrl: `${instance.url}/wallet/done`,
    });
    assert.equal(onboarding.status, 200, onboarding.text);
    assert.notEqual(onboarding.json.result.accountId, bobsAccount);
    const mine = await op(mallory, 'svc.wallet.read_account');
    assert.equal(mine.account.accountId, onboarding.json.result.accountId);
    const bobs = await op(bob, 'svc.wallet.read_account');
    assert.equal(bobs.account.accountId, bobsAccount);
    assert.equal(bobs.account.country, 'DE');
  });
});
