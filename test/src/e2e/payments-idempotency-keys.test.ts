// Checkout keys are each caller's own (docs/payments.md#checkout): on a global instance over PostgreSQL,
// with Stripe played by the local server that speaks its API, a key another person used first — through
// svc.payments.start_checkout or at the platform's checkout route — neither blocks nor answers a seller's
// checkout under the same key; the same seller's same key and body answer the first session, and another
// body under it is 422 payments.idempotency_key_reused with nothing written and Stripe not called.
import {
  startStripeApiServer,
  startTestInstance,
  type StripeApiServer,
  type TestInstance,
} from '@tributary/test';
import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { signUp, type Loose, type Person } from './mcp-helpers.js';

const WEBHOOK_SECRET = `whsec_${'k'.repeat(32)}`;

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

describe('payments: idempotency keys per caller', () => {
  let api: StripeApiServer;
  let instance: TestInstance;
  let bob: Person;
  let carol: Person;
  let mallory: Person;

  const count = async (sql: string): Promise<number> =>
    Number((await instance.instance.pool.query<{ n: string }>(sql)).rows[0]!.n);
  const quiet = async () => {
    await api.waitForDeliveries();
    await until(
      'every webhook event recorded and processed',
      async () =>
        (await count('SELECT count(*) AS n FROM payment_webhook_inbox WHERE logged_at IS NULL')) === 0 &&
        (await count('SELECT count(*) AS n FROM rm_payment_webhook_events WHERE processed_at IS NULL')) === 0,
    );
  };
  const footprint = async () => {
    await quiet();
    return {
      events: await count(`SELECT count(*) AS n FROM events WHERE type LIKE 'payment.%'`),
      obligations: await count('SELECT count(*) AS n FROM rm_payment_obligations'),
      checkouts: await count('SELECT count(*) AS n FROM rm_payment_checkouts'),
      stripeCalls: api.requests.filter((r) => r.method === 'POST').length,
    };
  };
  const checkoutBody = (obligationId: string, amount = 1000): Loose => ({
    obligationId,
    lineItems: [{ name: 'Bread', amount, quantity: 1 }],
    currency: 'eur',
    successUrl: `${instance.url}/shop/paid`,
    cancelUrl: `${instance.url}/shop/cancelled`,
  });
  const startCheckout = (who: Person, body: Loose) =>
    who.browser.post('/api/ops/svc.payments.start_checkout', body);
  const onboard = async (who: Person) => {
    const r = await who.browser.post('/api/federation/connect/onboarding', {
      country: 'DE',
      refreshUrl: `${instance.url}/wallet/refresh`,
      returnUrl: `${instance.url}/wallet/done`,
    });
    assert.equal(r.status, 200, r.text);
    api.completeOnboarding(r.json.result.accountId);
    await until('the account enabled', async () => {
      const a = await who.browser.post('/api/ops/svc.wallet.read_account', {});
      return a.json.result?.account?.chargesEnabled === true;
    });
  };

  beforeAll(async () => {
    api = await startStripeApiServer();
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
    await signUp(instance.url, 'olga'); // the operator
    bob = await signUp(instance.url, 'bob');
    carol = await signUp(instance.url, 'carol');
    mallory = await signUp(instance.url, 'mallory');
    await onboard(bob);
    await onboard(carol);
  });
  afterAll(async () => {
    await instance?.destroy();
    await api?.close();
  });

  test('given a key Mallory used first with start_checkout, when Bob starts his checkout under it, then it is his own', async () => {
    const key = 'order-squat-0001';
    const squat = await startCheckout(mallory, checkoutBody(key, 1));
    // Mallory sells nothing (no connected account), but her obligation under that key is recorded.
    assert.equal(squat.status, 400, squat.text);
    assert.equal(squat.json.code, 'payments.no_connected_account');
    const mine = await startCheckout(bob, checkoutBody(key));
    assert.equal(mine.status, 201, mine.text);
    assert.equal(mine.json.result.obligationId, key);
    assert.match(mine.json.result.sessionId, /^cs_test_/);
    const session = api.object(mine.json.result.sessionId) as Loose;
    assert.equal(session.amount_total, 1000);
    const bobs = await bob.browser.post('/api/ops/svc.wallet.list_receipts', {});
    assert.deepEqual(
      bobs.json.result.obligations.map((o: Loose) => [o.obligationId, o.amount]),
      [[key, 1000]],
    );
  });

  test('given a key Carol used first at the platform’s checkout route, when Bob starts his checkout under it, then it is his own, and hers stays hers', async () => {
    const key = 'order-squat-0002';
    const hers = await carol.browser.post('/api/federation/stripe/checkout', checkoutBody(key, 500));
    assert.equal(hers.status, 200, hers.text);
    const mine = await startCheckout(bob, checkoutBody(key));
    assert.equal(mine.status, 201, mine.text);
    assert.notEqual(mine.json.result.sessionId, hers.json.result.sessionId);
    // Each again: each answers its own first session.
    const hersAgain = await carol.browser.post('/api/federation/stripe/checkout', checkoutBody(key, 500));
    assert.equal(hersAgain.json.result.sessionId, hers.json.result.sessionId);
    const mineAgain = await startCheckout(bob, checkoutBody(key));
    assert.equal(mineAgain.json.result.sessionId, mine.json.result.sessionId);
    // At the route too, Bob's key is his: the checkout his start_checkout opened, not Carol's.
    const bobAtRoute = await bob.browser.post('/api/federation/stripe/checkout', checkoutBody(key));
    assert.equal(bobAtRoute.status, 200, bobAtRoute.text);
    assert.equal(bobAtRoute.json.result.sessionId, mine.json.result.sessionId);
  });

  test('given Bob’s key, when he uses it again with another body, then 422 payments.idempotency_key_reused, nothing written, Stripe not called', async () => {
    const key = 'order-bob-00003';
    const first = await startCheckout(bob, checkoutBody(key, 800));
    assert.equal(first.status, 201, first.text);
    const before = await footprint();
    const other = await startCheckout(bob, checkoutBody(key, 801));
    assert.equal(other.status, 422, other.text);
    assert.equal(other.json.code, 'payments.idempotency_key_reused');
    const atRoute = await bob.browser.post(
      '/api/federation/stripe/checkout',
      checkoutBody('order-bob-00004', 100),
    );
    assert.equal(atRoute.status, 200, atRoute.text);
    const beforeRoute = await footprint();
    const otherAtRoute = await bob.browser.post(
      '/api/federation/stripe/checkout',
      checkoutBody('order-bob-00004', 101),
    );
    assert.equal(otherAtRoute.status, 422, otherAtRoute.text);
    assert.equal(otherAtRoute.json.code, 'payments.idempotency_key_reused');
    assert.deepEqual(await footprint(), beforeRoute);
    assert.equal(before.stripeCalls + 1, beforeRoute.stripeCalls);
  });
});
