// The local Stripe API server (stripe-api-server.ts) driven by the official `stripe` package: what the
// package sends must be understood, and what the server answers must be what the package expects of
// Stripe — objects, errors mapped to the package's error classes, idempotent replays, Connect accounts
// and webhooks that `stripe.webhooks.constructEvent` accepts (and refuses when altered or stale).
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { parseStripeForm, startStripeApiServer, type StripeApiServer } from './stripe-api-server.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loose = any;

interface Received {
  body: string;
  signature: string;
  contentType: string;
}

/** A webhook endpoint on loopback that records what it receives and answers `status()`. */
async function startReceiver(status: (body: string) => number = () => 200) {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({
        body: Buffer.concat(chunks).toString('utf8'),
        signature: String(req.headers['stripe-signature'] ?? ''),
        contentType: String(req.headers['content-type'] ?? ''),
      });
      res.writeHead(status(received.at(-1)!.body), { 'Content-Type': 'application/json' });
      res.end('{}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook`;
  return {
    url,
    received,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

async function until(check: () => boolean, what: string, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const lineItem = (name: string, unitAmount: number, quantity = 1, currency = 'eur') => ({
  price_data: { currency, product_data: { name }, unit_amount: unitAmount },
  quantity,
});

const rejects = async (p: Promise<unknown>, check: (e: Loose) => void) => {
  let caught: unknown;
  try {
    await p;
  } catch (e) {
    caught = e;
  }
  assert.ok(caught, 'expected the call to fail');
  check(caught);
};

describe('the local Stripe API server', () => {
  let api: StripeApiServer;
  let stripe: Stripe;

  beforeAll(async () => {
    api = await startStripeApiServer({ platformBalance: { eur: 100_000 } });
    stripe = new Stripe(api.secretKey, { ...api.clientOptions, maxNetworkRetries: 0 });
  });
  afterAll(async () => {
    await api.close();
  });

  test('parses bracketed form encoding into nested objects and arrays', () => {
    assert.deepEqual(parseStripeForm('a[b][0][c]=x&a[b][1][c]=y%20z&e[]=1&e[]=2&m[k]=&n=1+2'), {
      a: { b: [{ c: 'x' }, { c: 'y z' }] },
      e: ['1', '2'],
      m: { k: '' },
      n: '1 2',
    });
  });

  test('a checkout session is created from nested line items, retrieved and listed', async () => {
    const session = await stripe.checkout.sessions.create({
      mode: 'payment',
      line_items: [lineItem('Bread', 450, 2), lineItem('Jam', 300)],
      success_url: 'https://seller.example/paid?session={CHECKOUT_SESSION_ID}',
      cancel_url: 'https://seller.example/cancelled',
      client_reference_id: 'obligation-1',
      metadata: { obligation: 'obligation-1' },
    });
    assert.match(session.id, /^cs_test_/);
    assert.equal(session.object, 'checkout.session');
    assert.equal(session.amount_total, 1200);
    assert.equal(session.currency, 'eur');
    assert.equal(session.status, 'open');
    assert.equal(session.payment_status, 'unpaid');
    assert.equal(session.metadata?.obligation, 'obligation-1');
    assert.ok(session.url?.startsWith(api.url));
    assert.equal((session as Loose).__lineItems, undefined, 'internal fields stay inside');

    const again = await stripe.checkout.sessions.retrieve(session.id);
    assert.deepEqual(again, session);
    const items = await stripe.checkout.sessions.listLineItems(session.id);
    assert.deepEqual(
      items.data.map((i) => [i.description, i.quantity, i.amount_total]),
      [
        ['Bread', 2, 900],
        ['Jam', 1, 300],
      ],
    );
    const listed = await stripe.checkout.sessions.list({ limit: 100 });
    assert.ok(listed.data.some((s) => s.id === session.id));
    assert.equal(listed.object, 'list');
  });

  test('lists page newest first with starting_after, and the package auto-paginates', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const s = await stripe.checkout.sessions.create({
        mode: 'payment',
        line_items: [lineItem(`Item ${i}`, 100 + i)],
        success_url: 'https://seller.example/ok',
      });
      ids.push(s.id);
    }
    const first = await stripe.checkout.sessions.list({ limit: 2 });
    assert.deepEqual(
      first.data.map((s) => s.id),
      [ids[4], ids[3]],
    );
    assert.equal(first.has_more, true);
    const second = await stripe.checkout.sessions.list({ limit: 2, starting_after: ids[3] });
    assert.deepEqual(
      second.data.map((s) => s.id),
      [ids[2], ids[1]],
    );
    const all = await stripe.checkout.sessions.list({ limit: 2 }).autoPagingToArray({ limit: 1000 });
    for (const id of ids) assert.ok(all.some((s) => s.id === id));
  });

  test('a wrong or missing key is refused as Stripe refuses it (401)', async () => {
    const wrong = new Stripe('sk_test_wrong', { ...api.clientOptions, maxNetworkRetries: 0 });
    await rejects(wrong.balance.retrieve(), (e) => {
      assert.ok(e instanceof Stripe.errors.StripeAuthenticationError);
      assert.equal(e.statusCode, 401);
      assert.equal(e.type, 'StripeAuthenticationError');
    });
    const res = await fetch(`${api.url}/v1/balance`);
    assert.equal(res.status, 401);
    const body = (await res.json()) as Loose;
    assert.equal(body.error.type, 'invalid_request_error');
    const basic = await fetch(`${api.url}/v1/balance`, {
      headers: { Authorization: `Basic ${Buffer.from(`${api.secretKey}:`).toString('base64')}` },
    });
    assert.equal(basic.status, 200);
  });

  test("bad parameters answer Stripe's error shape with its codes", async () => {
    await rejects(
      stripe.checkout.sessions.create({ mode: 'payment', line_items: [{ quantity: 1 } as Loose] }),
      (e) => {
        assert.ok(e instanceof Stripe.errors.StripeInvalidRequestError);
        assert.equal(e.code, 'parameter_missing');
        assert.equal(e.param, 'line_items[0][price_data]');
        assert.equal(e.statusCode, 400);
      },
    );
    await rejects(stripe.checkout.sessions.create({ mode: 'payment', bogus: 1 } as Loose), (e) => {
      assert.equal(e.code, 'parameter_unknown');
      assert.equal(e.param, 'bogus');
    });
    await rejects(
      stripe.checkout.sessions.create({ mode: 'payment', line_items: [lineItem('x', 10)] }),
      (e) => assert.equal(e.code, 'amount_too_small'),
    );
    await rejects(
      stripe.checkout.sessions.create({ mode: 'payment', line_items: [lineItem('x', 100, 1, 'xyz')] }),
      (e) => assert.equal(e.param, 'line_items[0][price_data][currency]'),
    );
    await rejects(
      stripe.checkout.sessions.create({
        mode: 'payment',
        line_items: [lineItem('x', 100)],
        success_url: 'not a url',
      }),
      (e) => assert.equal(e.code, 'url_invalid'),
    );
    await rejects(stripe.checkout.sessions.retrieve('cs_test_nope'), (e) => {
      assert.equal(e.statusCode, 404);
      assert.equal(e.code, 'resource_missing');
      assert.equal(e.type, 'StripeInvalidRequestError');
    });
    const unknownUrl = await fetch(`${api.url}/v1/nothing-here`, {
      headers: { Authorization: `Bearer ${api.secretKey}` },
    });
    assert.equal(unknownUrl.status, 404);
    assert.equal(((await unknownUrl.json()) as Loose).error.type, 'invalid_request_error');
  });

  test('an idempotency key replays the first answer byte for byte; another body with it is an idempotency_error', async () => {
    const key = `obligation-${Date.now()}`;
    const body = new URLSearchParams({
      mode: 'payment',
      'line_items[0][price_data][currency]': 'eur',
      'line_items[0][price_data][product_data][name]': 'Cake',
      'line_items[0][price_data][unit_amount]': '900',
      'line_items[0][quantity]': '1',
      success_url: 'https://seller.example/ok',
    }).toString();
    const send = (b: string) =>
      fetch(`${api.url}/v1/checkout/sessions`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${api.secretKey}`,
          'Content-Type': 'application/x-www-form-urlencoded',
          'Idempotency-Key': key,
        },
        body: b,
      });
    const first = await send(body);
    const firstText = await first.text();
    assert.equal(first.status, 200);
    assert.equal(first.headers.get('idempotent-replayed'), null);
    const second = await send(body);
    assert.equal(second.status, 200);
    assert.equal(second.headers.get('idempotent-replayed'), 'true');
    assert.equal(second.headers.get('original-request'), first.headers.get('request-id'));
    assert.equal(await second.text(), firstText);
    assert.equal(api.objects('checkout.session').filter((s) => s.id === JSON.parse(firstText).id).length, 1);

    const other = await send(body.replace('900', '901'));
    assert.equal(other.status, 400);
    assert.equal(((await other.json()) as Loose).error.type, 'idempotency_error');
    assert.deepEqual(api.idempotency(key), { requests: 3, executions: 1, replays: 1, mismatches: 1 });

    // Through the package: same call, same key → the same session; changed → StripeIdempotencyError.
    const k2 = `${key}-pkg`;
    const params = {
      mode: 'payment' as const,
      line_items: [lineItem('Pie', 700)],
      success_url: 'https://s.example/ok',
    };
    const a = await stripe.checkout.sessions.create(params, { idempotencyKey: k2 });
    const b = await stripe.checkout.sessions.create(params, { idempotencyKey: k2 });
    assert.equal(a.id, b.id);
    assert.equal(b.lastResponse.headers['idempotent-replayed'], 'true');
    await rejects(
      stripe.checkout.sessions.create(
        { ...params, line_items: [lineItem('Pie', 800)] },
        { idempotencyKey: k2 },
      ),
      (e) => {
        assert.ok(e instanceof Stripe.errors.StripeIdempotencyError);
        assert.equal(e.statusCode, 400);
      },
    );
    assert.equal(api.idempotency(k2).executions, 1);
  });

  test('a request refused for its parameters saves nothing under its key: the corrected retry runs', async () => {
    const key = `refused-${Date.now()}`;
    await rejects(
      stripe.checkout.sessions.create(
        { mode: 'payment', line_items: [{ quantity: 1 } as Loose] },
        { idempotencyKey: key },
      ),
      (e) => assert.equal(e.code, 'parameter_missing'),
    );
    const ok = await stripe.checkout.sessions.create(
      { mode: 'payment', line_items: [lineItem('Tea', 300)] },
      { idempotencyKey: key },
    );
    assert.match(ok.id, /^cs_test_/);
    assert.equal(api.idempotency(key).executions, 1);
  });

  test('a lost answer retried with the same key runs once (dropResponse)', async () => {
    const key = `lost-${Date.now()}`;
    const account = await stripe.accounts.create({
      type: 'express',
      country: 'DE',
      capabilities: { transfers: { requested: true } },
    });
    api.completeOnboarding(account.id);
    // The package retries a closed connection once by itself (with the same key): both answers lost.
    api.failNext({ method: 'POST', pathPrefix: '/v1/transfers', dropResponse: true, count: 2 });
    const params = { amount: 500, currency: 'eur', destination: account.id };
    await rejects(stripe.transfers.create(params, { idempotencyKey: key }), (e) =>
      assert.ok(e instanceof Stripe.errors.StripeConnectionError),
    );
    const retried = await stripe.transfers.create(params, { idempotencyKey: key });
    assert.equal(retried.lastResponse.headers['idempotent-replayed'], 'true');
    assert.deepEqual(api.idempotency(key), { requests: 3, executions: 1, replays: 2, mismatches: 0 });
    assert.equal(api.objects('transfer').filter((t) => t.destination === account.id).length, 1);
    assert.equal(api.balanceOf(account.id, 'eur').available, 500);
  });

  test('connected accounts: created with a country, onboarded through a link, used with Stripe-Account', async () => {
    const account = await stripe.accounts.create({
      type: 'express',
      country: 'FR',
      email: 'seller@example.org',
      capabilities: { card_payments: { requested: true }, transfers: { requested: true } },
      metadata: { agent: 'agent-1' },
    });
    assert.match(account.id, /^acct_/);
    assert.equal(account.country, 'FR');
    assert.equal(account.charges_enabled, false);
    assert.equal(account.payouts_enabled, false);
    assert.equal(account.details_submitted, false);
    assert.equal(account.capabilities?.transfers, 'inactive');

    await rejects(stripe.accounts.create({ type: 'express', country: 'France' }), (e) =>
      assert.equal(e.param, 'country'),
    );
    await rejects(stripe.accounts.retrieve('acct_missing'), (e) => assert.equal(e.code, 'resource_missing'));

    const link = await stripe.accountLinks.create({
      account: account.id,
      refresh_url: 'https://global.example/refresh',
      return_url: 'https://global.example/return',
      type: 'account_onboarding',
    });
    assert.equal(link.object, 'account_link');
    assert.ok(link.expires_at > link.created);
    const page = await fetch(link.url);
    assert.equal(page.status, 200);
    const done = await fetch(link.url, { method: 'POST', redirect: 'manual' });
    assert.equal(done.status, 303);
    assert.equal(done.headers.get('location'), 'https://global.example/return');

    const onboarded = await stripe.accounts.retrieve(account.id);
    assert.equal(onboarded.charges_enabled, true);
    assert.equal(onboarded.payouts_enabled, true);
    assert.equal(onboarded.details_submitted, true);
    assert.equal(onboarded.capabilities?.transfers, 'active');
    const updated = api.events.filter((e) => e.type === 'account.updated' && e.account === account.id);
    assert.equal(updated.length, 1);
    assert.equal(updated[0]!.data.previous_attributes.charges_enabled, false);

    // Stripe-Account: the connected account's own balance and payouts.
    await stripe.transfers.create({ amount: 2000, currency: 'eur', destination: account.id });
    const balance = await stripe.balance.retrieve({}, { stripeAccount: account.id });
    assert.equal(balance.available.find((b) => b.currency === 'eur')?.amount, 2000);
    const payout = await stripe.payouts.create(
      { amount: 1500, currency: 'eur' },
      { stripeAccount: account.id },
    );
    assert.match(payout.id, /^po_/);
    assert.equal(payout.status, 'pending');
    await rejects(stripe.payouts.retrieve(payout.id), (e) => assert.equal(e.code, 'resource_missing'));
    assert.equal((await stripe.payouts.retrieve(payout.id, {}, { stripeAccount: account.id })).amount, 1500);
    await rejects(
      stripe.payouts.create({ amount: 1000, currency: 'eur' }, { stripeAccount: account.id }),
      (e) => assert.equal(e.code, 'balance_insufficient'),
    );
    const paid = api.settlePayout(payout.id, 'paid', account.id);
    assert.equal(paid.status, 'paid');

    await rejects(stripe.balance.retrieve({}, { stripeAccount: 'acct_notmine' }), (e) => {
      assert.ok(e instanceof Stripe.errors.StripePermissionError);
      assert.equal(e.statusCode, 403);
      assert.equal(e.code, 'account_invalid');
    });
  });

  test('transfers need funds and an account that can receive them', async () => {
    const fresh = await stripe.accounts.create({
      type: 'custom',
      country: 'DE',
      capabilities: { transfers: { requested: true } },
    });
    await rejects(stripe.transfers.create({ amount: 100, currency: 'eur', destination: fresh.id }), (e) =>
      assert.equal(e.code, 'insufficient_capabilities_for_transfer'),
    );
    api.completeOnboarding(fresh.id);
    await rejects(
      stripe.transfers.create({ amount: 10_000_000, currency: 'eur', destination: fresh.id }),
      (e) => assert.equal(e.code, 'balance_insufficient'),
    );
    const t = await stripe.transfers.create({
      amount: 100,
      currency: 'eur',
      destination: fresh.id,
      metadata: { job: 'j1' },
    });
    assert.equal(t.destination, fresh.id);
    assert.equal(t.metadata.job, 'j1');
    const listed = await stripe.transfers.list({ destination: fresh.id });
    assert.deepEqual(
      listed.data.map((x) => x.id),
      [t.id],
    );
  });

  test('a completed destination checkout produces the payment intent, charge and transfer; refunds stop at what is left', async () => {
    const seller = await stripe.accounts.create({
      type: 'express',
      country: 'NL',
      capabilities: { card_payments: { requested: true }, transfers: { requested: true } },
    });
    await rejects(
      stripe.checkout.sessions.create({
        mode: 'payment',
        line_items: [lineItem('Chair', 5000)],
        payment_intent_data: { transfer_data: { destination: seller.id } },
      }),
      (e) => assert.equal(e.code, 'insufficient_capabilities_for_transfer'),
    );
    api.completeOnboarding(seller.id);
    const session = await stripe.checkout.sessions.create({
      mode: 'payment',
      line_items: [lineItem('Chair', 5000)],
      success_url: 'https://seller.example/ok',
      payment_intent_data: { application_fee_amount: 500, transfer_data: { destination: seller.id } },
      metadata: { obligation: 'ob-7' },
    });
    const done = await api.completeCheckout(session.id);
    assert.deepEqual(
      done.events.map((e) => e.type),
      ['charge.succeeded', 'payment_intent.succeeded', 'transfer.created', 'checkout.session.completed'],
    );
    const completed = await stripe.checkout.sessions.retrieve(session.id, { expand: ['payment_intent'] });
    assert.equal(completed.status, 'complete');
    assert.equal(completed.payment_status, 'paid');
    const pi = completed.payment_intent as Stripe.PaymentIntent;
    assert.equal(pi.object, 'payment_intent');
    assert.equal(pi.status, 'succeeded');
    assert.equal(pi.amount_received, 5000);
    const charge = await stripe.charges.retrieve(pi.latest_charge as string);
    assert.equal(charge.paid, true);
    assert.equal(charge.amount, 5000);
    assert.equal(api.balanceOf(seller.id, 'eur').available, 4500);
    const transfer = await stripe.transfers.retrieve(charge.transfer as string);
    assert.equal(transfer.amount, 4500);
    assert.equal(transfer.destination, seller.id);

    const r1 = await stripe.refunds.create({ payment_intent: pi.id, amount: 2000 });
    assert.match(r1.id, /^re_/);
    assert.equal(r1.status, 'succeeded');
    assert.equal(r1.charge, charge.id);
    await rejects(stripe.refunds.create({ charge: charge.id, amount: 3001 }), (e) => {
      assert.equal(e.code, 'amount_too_large');
      assert.equal(e.param, 'amount');
    });
    const r2 = await stripe.refunds.create({ charge: charge.id, amount: 3000, reverse_transfer: true });
    assert.equal(r2.amount, 3000);
    await rejects(stripe.refunds.create({ charge: charge.id, amount: 1 }), (e) =>
      assert.equal(e.code, 'charge_already_refunded'),
    );
    const refunded = await stripe.charges.retrieve(charge.id);
    assert.equal(refunded.amount_refunded, 5000);
    assert.equal(refunded.refunded, true);
    const refunds = await stripe.refunds.list({ charge: charge.id });
    assert.deepEqual(
      refunds.data.map((r) => r.amount),
      [3000, 2000],
    );
    await rejects(stripe.refunds.create({ charge: charge.id, amount: 0 }), (e) =>
      assert.equal(e.code, 'parameter_invalid_integer'),
    );

    const events = await stripe.events.list({ type: 'charge.refunded', limit: 100 });
    assert.equal(events.data.filter((e) => (e.data.object as Stripe.Charge).id === charge.id).length, 2);
    const completedEvents = await stripe.events.list({ types: ['checkout.session.completed'], limit: 100 });
    assert.ok(completedEvents.data.some((e) => (e.data.object as Stripe.Checkout.Session).id === session.id));
  });

  test('the checkout page pays the session and redirects to its success URL', async () => {
    const session = await stripe.checkout.sessions.create({
      mode: 'payment',
      line_items: [lineItem('Soap', 250)],
      success_url: 'https://seller.example/paid?session={CHECKOUT_SESSION_ID}',
    });
    const page = await fetch(session.url!);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /Soap/);
    const paid = await fetch(session.url!, { method: 'POST', redirect: 'manual' });
    assert.equal(paid.status, 303);
    assert.equal(paid.headers.get('location'), `https://seller.example/paid?session=${session.id}`);
    assert.equal((await stripe.checkout.sessions.retrieve(session.id)).payment_status, 'paid');
    const expired = await stripe.checkout.sessions.create({
      mode: 'payment',
      line_items: [lineItem('Soap', 250)],
    });
    const e = await stripe.checkout.sessions.expire(expired.id);
    assert.equal(e.status, 'expired');
  });
});

describe('webhooks signed as Stripe signs them', () => {
  let api: StripeApiServer;
  let stripe: Stripe;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  /** Event types the receiver answers 500 for, and how many times. */
  const failing = new Map<string, number>();

  beforeAll(async () => {
    api = await startStripeApiServer({ retryDelaysMs: [20, 20] });
    stripe = new Stripe(api.secretKey, { ...api.clientOptions, maxNetworkRetries: 0 });
    receiver = await startReceiver((body) => {
      const type = (JSON.parse(body) as { type?: string }).type ?? '';
      const left = failing.get(type) ?? 0;
      failing.set(type, left - 1);
      return left > 0 ? 500 : 200;
    });
  });
  afterAll(async () => {
    await api.close();
    await receiver.close();
  });

  test('a delivered event verifies with constructEvent; an altered body, another secret or a stale time does not', async () => {
    const endpoint = api.addWebhookEndpoint({ url: receiver.url });
    assert.match(endpoint.secret, /^whsec_/);
    const session = await stripe.checkout.sessions.create({
      mode: 'payment',
      line_items: [lineItem('Lamp', 1500)],
    });
    await api.completeCheckout(session.id);
    await api.waitForDeliveries();
    const completed = receiver.received.find((r) => JSON.parse(r.body).type === 'checkout.session.completed');
    assert.ok(completed);
    assert.equal(completed.contentType, 'application/json; charset=utf-8');
    assert.match(completed.signature, /^t=\d+,v1=[0-9a-f]{64},v0=[0-9a-f]{64}$/);
    const event = stripe.webhooks.constructEvent(completed.body, completed.signature, endpoint.secret);
    assert.equal(event.type, 'checkout.session.completed');
    assert.equal((event.data.object as Stripe.Checkout.Session).id, session.id);
    assert.equal(event.api_version, (await stripe.events.retrieve(event.id)).api_version);

    const altered = completed.body.replace('"amount_total": 1500', '"amount_total": 1');
    assert.notEqual(altered, completed.body);
    assert.throws(
      () => stripe.webhooks.constructEvent(altered, completed.signature, endpoint.secret),
      Stripe.errors.StripeSignatureVerificationError,
    );
    assert.throws(
      () => stripe.webhooks.constructEvent(completed.body, completed.signature, 'whsec_other'),
      Stripe.errors.StripeSignatureVerificationError,
    );

    // The package's own test header and ours agree for the same body, secret and time.
    const t = Math.floor(Date.now() / 1000);
    const ours = api.signatureHeader(completed.body, endpoint.secret, t);
    const theirs = stripe.webhooks.generateTestHeaderString({
      payload: completed.body,
      secret: endpoint.secret,
      timestamp: t,
    });
    assert.equal(ours.split(',').slice(0, 2).join(','), theirs);

    const before = receiver.received.length;
    const [stale] = await api.deliver(event.id, { timestampSeconds: t - 3600 });
    assert.equal(receiver.received.length, before + 1);
    assert.equal(stale!.status, 200);
    assert.throws(
      () => stripe.webhooks.constructEvent(stale!.body, stale!.signatureHeader, endpoint.secret, 300),
      Stripe.errors.StripeSignatureVerificationError,
    );
    const [tampered] = await api.deliver(event.id, { body: altered, signBody: completed.body });
    assert.throws(
      () => stripe.webhooks.constructEvent(tampered!.body, tampered!.signatureHeader, endpoint.secret),
      Stripe.errors.StripeSignatureVerificationError,
    );
    api.removeWebhookEndpoint(endpoint.id);
  });

  test('an event delivered N times, events held and sent newest first, and a failed delivery retried', async () => {
    const endpoint = api.addWebhookEndpoint({
      url: receiver.url,
      enabledEvents: ['checkout.session.completed', 'charge.succeeded'],
    });
    api.setAutoDeliver(false);
    const session = await stripe.checkout.sessions.create({
      mode: 'payment',
      line_items: [lineItem('Cup', 800)],
    });
    const done = await api.completeCheckout(session.id);
    assert.equal(receiver.received.length > 0, true);
    const start = receiver.received.length;
    const completedEvent = done.events.find((e) => e.type === 'checkout.session.completed')!;
    const held = api.pendingEvents().map((e) => e.id);
    assert.deepEqual(
      held,
      done.events.map((e) => e.id),
    );

    const twenty = await api.deliver(completedEvent.id, { times: 20 });
    assert.equal(twenty.length, 20);
    assert.ok(twenty.every((d) => d.status === 200));
    const bodies = receiver.received.slice(start).map((r) => r.body);
    assert.equal(new Set(bodies).size, 1, 'the same event each time');

    const rest = await api.deliverPending({ order: 'newest' });
    // Only the types the endpoint asked for: charge.succeeded (transfer/payment_intent are filtered out).
    assert.deepEqual(
      rest.map((d) => d.eventType),
      ['charge.succeeded'],
    );

    api.setAutoDeliver(true);
    failing.set('charge.succeeded', 2);
    const s2 = await stripe.checkout.sessions.create({
      mode: 'payment',
      line_items: [lineItem('Bowl', 900)],
    });
    const d2 = await api.completeCheckout(s2.id);
    await api.waitForDeliveries();
    const id = d2.events.find((e) => e.type === 'charge.succeeded')!.id;
    const attempts = api.deliveries.filter((d) => d.eventId === id);
    assert.deepEqual(
      attempts.map((a) => [a.attempt, a.status]),
      [
        [1, 500],
        [2, 500],
        [3, 200],
      ],
    );
    const eachSigned = attempts.map(
      (a) => stripe.webhooks.constructEvent(a.body, a.signatureHeader, endpoint.secret).id,
    );
    assert.deepEqual(eachSigned, [id, id, id]);
    api.removeWebhookEndpoint(endpoint.id);
  });

  test('connect endpoints get the events of connected accounts (with `account`), platform endpoints the rest', async () => {
    const platform = await startReceiver();
    const connect = await startReceiver();
    const pe = api.addWebhookEndpoint({ url: platform.url });
    const ce = api.addWebhookEndpoint({ url: connect.url, connect: true });
    const account = await stripe.accounts.create({
      type: 'express',
      country: 'IT',
      capabilities: { transfers: { requested: true } },
    });
    api.completeOnboarding(account.id);
    await until(() => connect.received.length >= 1, 'account.updated at the connect endpoint');
    const event = stripe.webhooks.constructEvent(
      connect.received[0]!.body,
      connect.received[0]!.signature,
      ce.secret,
    );
    assert.equal(event.type, 'account.updated');
    assert.equal(event.account, account.id);
    assert.equal((event.data.object as Stripe.Account).charges_enabled, true);
    assert.equal(
      platform.received.some((r) => JSON.parse(r.body).type === 'account.updated'),
      false,
    );

    const created = await fetch(`${api.url}/v1/webhook_endpoints`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${api.secretKey}`,
        'Content-Type': 'application/x-www-form-urlencoded',
      },
      body: `url=${encodeURIComponent(platform.url)}&enabled_events[]=payout.paid`,
    });
    const we = (await created.json()) as Loose;
    assert.match(we.secret, /^whsec_/);
    assert.deepEqual(we.enabled_events, ['payout.paid']);
    api.removeWebhookEndpoint(pe.id);
    api.removeWebhookEndpoint(ce.id);
    api.removeWebhookEndpoint(we.id);
    await api.waitForDeliveries();
    await platform.close();
    await connect.close();
  });
});
