// The fast path of POST /api/federation/stripe/webhook in front of the application: it calls the intake
// (receiveWebhook) and answers as the app's route does — `{ received, eventId, duplicate }`, or
// problem+json with the route's stable codes, the request id and the app's security headers — within
// the body limit; any other method or path, or a compressed body, falls through to the app. Deliveries
// refused as not Stripe's are counted per address: past the budget, 429 until it refills.
import { createRateLimiter, createStripeWebhookFastPath, webhookRefusals } from '@tributary/adapters';
import { invalid } from '@tributary/domain';
import type { ReceivedWebhookEvent, Services } from '@tributary/services';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import proxyAddr from 'proxy-addr';
import { afterAll, beforeAll, describe, test } from 'vitest';

const PATH = '/api/federation/stripe/webhook';
const MAX = 4096;

describe('the Stripe webhook fast path', () => {
  let server: http.Server;
  let url: string;
  const recorded = new Map<string, ReceivedWebhookEvent>();
  let wakes = 0;
  /** What the inbox does next: record, or fail as a database that went away does. */
  let inboxDown = false;
  let paymentsOn = true;
  let clockMs = 0;
  const processor = {
    verifyWebhook(raw: Buffer, header: string | undefined) {
      if (header !== 'good') throw invalid('payments.webhook_signature_invalid', 'does not verify');
      const e = JSON.parse(raw.toString('utf8')) as { id: string; type: string };
      if (typeof e.id !== 'string') throw invalid('payments.webhook_malformed', 'not a Stripe event');
      return { id: e.id, type: e.type, created: 1, livemode: false, object: {}, account: null };
    },
  };
  const inbox = {
    async record(e: ReceivedWebhookEvent) {
      if (inboxDown) throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
      const duplicate = recorded.has(e.eventId);
      if (!duplicate) recorded.set(e.eventId, e);
      return { duplicate };
    },
  };
  const services = {
    clock: { now: () => new Date('2026-11-27T12:00:00.000Z') },
    get payments() {
      return paymentsOn ? { processor, inbox, wake: () => void wakes++ } : undefined;
    },
  } as unknown as Services;

  beforeAll(async () => {
    const fast = createStripeWebhookFastPath({
      services,
      logger: pino({ level: 'silent' }),
      maxBytes: MAX,
      // 5 refusals a minute, on a clock the test moves; the client's address from X-Forwarded-For, as
      // TRUST_PROXY=loopback would have it.
      refusals: webhookRefusals(createRateLimiter({ count: 5, perSeconds: 60 }, { now: () => clockMs })),
      trustProxy: proxyAddr.compile('loopback'),
    });
    server = http.createServer((req, res) => {
      if (!fast(req, res)) res.writeHead(418).end('app');
    });
    server.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const post = (body: string | Uint8Array, headers: Record<string, string> = {}, path = PATH) =>
    fetch(url + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': 'good', ...headers },
      body,
    });
  const problem = async (r: Response) => {
    assert.equal(r.headers.get('content-type'), 'application/problem+json; charset=utf-8');
    return (await r.json()) as { code: string; status: number; requestId: string; instance: string };
  };

  test('given a verified event, then it is recorded once and answered as the route does, a duplicate as one', async () => {
    const body = JSON.stringify({ id: 'evt_fast_1', type: 'payment_intent.created' });
    const r = await post(body, { 'x-request-id': 'req-fast-1' });
    assert.equal(r.status, 200);
    assert.deepEqual(await r.json(), { received: true, eventId: 'evt_fast_1', duplicate: false });
    assert.equal(r.headers.get('content-type'), 'application/json; charset=utf-8');
    assert.equal(r.headers.get('x-request-id'), 'req-fast-1');
    assert.equal(r.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(r.headers.get('referrer-policy'), 'no-referrer');
    assert.equal(r.headers.get('cache-control'), 'no-store');
    assert.equal(recorded.get('evt_fast_1')?.payload, body);
    assert.equal(recorded.get('evt_fast_1')?.receivedAt, '2026-11-27T12:00:00.000Z');
    assert.equal(wakes, 1);
    const again = await post(body, {}, `${PATH}?attempt=2`);
    assert.equal(again.status, 200);
    assert.deepEqual(await again.json(), { received: true, eventId: 'evt_fast_1', duplicate: true });
    assert.match(again.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
    assert.equal(wakes, 1);
  });

  test('given a bad signature, a malformed event, a body over the limit, then each is refused with its code and nothing is recorded', async () => {
    const before = recorded.size;
    const bad = await post(JSON.stringify({ id: 'evt_fast_bad', type: 'x' }), { 'stripe-signature': 'bad' });
    assert.equal(bad.status, 400);
    const p = await problem(bad);
    assert.equal(p.code, 'payments.webhook_signature_invalid');
    assert.equal(p.instance, PATH);
    assert.equal(p.requestId, bad.headers.get('x-request-id'));
    assert.equal(bad.headers.get('x-content-type-options'), 'nosniff');

    const unsigned = await fetch(url + PATH, { method: 'POST', body: '{}' });
    assert.equal(unsigned.status, 400);
    assert.equal((await problem(unsigned)).code, 'payments.webhook_signature_invalid');

    const malformed = await post(JSON.stringify({ type: 'x' }));
    assert.equal(malformed.status, 400);
    assert.equal((await problem(malformed)).code, 'payments.webhook_malformed');

    // A type the log's event cannot hold (over 100 characters): refused before anything is recorded.
    const unrecordable = await post(JSON.stringify({ id: 'evt_fast_long', type: 'x'.repeat(101) }));
    assert.equal(unrecordable.status, 400);
    assert.equal((await problem(unrecordable)).code, 'payments.webhook_malformed');

    // Declared too large: refused unread, the connection closed after the answer.
    const declared = await post(JSON.stringify({ id: 'evt_fast_big', pad: 'x'.repeat(MAX) }));
    assert.equal(declared.status, 413);
    assert.equal((await problem(declared)).code, 'request.too_large');
    assert.equal(declared.headers.get('connection'), 'close');

    // Streamed without a length and growing past the limit: the same answer.
    const chunks = new ReadableStream<Uint8Array>({
      start(c) {
        for (let i = 0; i < 4; i++) c.enqueue(new TextEncoder().encode('x'.repeat(MAX / 2)));
        c.close();
      },
    });
    const streamed = await fetch(url + PATH, {
      method: 'POST',
      headers: { 'stripe-signature': 'good' },
      body: chunks,
      duplex: 'half',
    } as RequestInit);
    assert.equal(streamed.status, 413);
    assert.equal((await problem(streamed)).code, 'request.too_large');
    assert.equal(recorded.size, before);
  });

  test('given deliveries refused as not Stripe’s from one address, then past its budget it is answered 429 until the budget refills; accepted deliveries are never counted, other addresses not affected', async () => {
    const from = (address: string, signature = 'good') => ({
      'x-forwarded-for': address,
      'stripe-signature': signature,
    });
    for (let i = 0; i < 8; i++) {
      const r = await post(JSON.stringify({ id: `evt_budget_ok_${i}`, type: 'x' }), from('203.0.113.7'));
      assert.equal(r.status, 200);
    }
    for (let i = 0; i < 5; i++) {
      const r = await post(JSON.stringify({ id: 'evt_budget_bad', type: 'x' }), from('203.0.113.9', 'bad'));
      assert.equal(r.status, 400);
      assert.equal((await problem(r)).code, 'payments.webhook_signature_invalid');
    }
    const before = recorded.size;
    // Even a good one from that address is refused now, before any check: nothing is recorded.
    const limited = await post(JSON.stringify({ id: 'evt_budget_later', type: 'x' }), from('203.0.113.9'));
    assert.equal(limited.status, 429);
    assert.equal(limited.headers.get('retry-after'), '12'); // one refusal back every 60/5 s
    const p = await problem(limited);
    assert.equal(p.code, 'request.rate_limited');
    assert.equal(p.requestId, limited.headers.get('x-request-id'));
    assert.equal(recorded.size, before);
    // Another address delivers as ever.
    const other = await post(JSON.stringify({ id: 'evt_budget_other', type: 'x' }), from('203.0.113.10'));
    assert.equal(other.status, 200);
    // Once a refusal's worth has refilled, the address is heard again.
    clockMs += 12_000;
    const later = await post(JSON.stringify({ id: 'evt_budget_later', type: 'x' }), from('203.0.113.9'));
    assert.equal(later.status, 200);
    assert.equal(recorded.has('evt_budget_later'), true);
  });

  test('given payments off or the database unreachable, then 503 with the route’s codes', async () => {
    paymentsOn = false;
    try {
      const off = await post(JSON.stringify({ id: 'evt_fast_off', type: 'x' }));
      assert.equal(off.status, 503);
      assert.equal((await problem(off)).code, 'payments.disabled');
    } finally {
      paymentsOn = true;
    }
    inboxDown = true;
    try {
      const down = await post(JSON.stringify({ id: 'evt_fast_down', type: 'x' }));
      assert.equal(down.status, 503);
      assert.equal(down.headers.get('retry-after'), '5');
      assert.equal((await problem(down)).code, 'service.unavailable');
    } finally {
      inboxDown = false;
    }
    assert.equal(recorded.has('evt_fast_off') || recorded.has('evt_fast_down'), false);
  });

  test('given another method or path, or a compressed body, then the app answers', async () => {
    assert.equal((await fetch(url + PATH)).status, 418);
    assert.equal((await fetch(url + PATH, { method: 'OPTIONS' })).status, 418);
    assert.equal((await post('{}', {}, `${PATH}/x`)).status, 418);
    assert.equal((await post('{}', {}, '/api/federation/stripe/checkout')).status, 418);
    assert.equal((await post('{}', { 'content-encoding': 'gzip' })).status, 418);
  });
});
