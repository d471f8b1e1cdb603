// The webhook intake's record (docs/payments.md#exactly-once): a delivery answered 200 is already
// committed in payment_webhook_inbox, before any log event, so it survives the process that answered
// (an API-only process, which runs no payments worker, answers; a full process started afterwards on the
// same database puts every answered event on the log once and processes it). Duplicates, concurrent
// or later, write nothing; a crash between the worker's append and its mark does not log twice; a signed
// body we could not record is refused with its code and writes nothing. Deliveries refused as not
// Stripe's are counted per address, by the fast path and the app's route alike.
import {
  appendNewAgents,
  eventually,
  startStripeApiServer,
  startTestInstance,
  STRIPE_API_VERSION,
  type StripeApiServer,
} from '@tributary/test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, test } from 'vitest';

type Instance = Awaited<ReturnType<typeof startTestInstance>>;

describe('Stripe webhook intake', () => {
  const secret = `whsec_${randomBytes(16).toString('hex')}`;
  let api: StripeApiServer;
  let g: Instance;
  /** The first process, whose database and data folder the second one reuses. */
  let first: Instance;
  let env: Record<string, string>;
  const run = randomBytes(4).toString('hex');

  const eventBody = (id: string) =>
    JSON.stringify({
      id,
      object: 'event',
      api_version: STRIPE_API_VERSION,
      created: Math.floor(Date.now() / 1000),
      data: { object: { id: `pi_${id}`, object: 'payment_intent', amount: 1000, currency: 'eur' } },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type: 'payment_intent.created',
    });
  const deliver = async (body: string) => {
    const r = await fetch(`${g.url}/api/federation/stripe/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': api.signatureHeader(body, secret) },
      body,
    });
    return { status: r.status, json: (await r.json()) as Record<string, unknown> };
  };
  const rows = async (sql: string, values: unknown[] = []) => (await g.instance.pool.query(sql, values)).rows;
  const onLog = async (ids: readonly string[]) =>
    Number(
      (
        await rows(
          `SELECT count(*) AS n FROM events WHERE type = 'payment.webhook_event_received'
           AND envelope::jsonb->'data'->>'eventId' = ANY($1::text[])`,
          [ids],
        )
      )[0].n,
    );

  beforeAll(async () => {
    api = await startStripeApiServer();
    env = {
      INSTANCE_ROLE: 'global',
      STRIPE_SECRET_KEY: api.secretKey,
      STRIPE_WEBHOOK_SECRET: secret,
      STRIPE_API_BASE: api.url,
      OUTBOUND_ALLOWED_ADDRESSES: '127.0.0.1',
      PAYMENTS_RECONCILE_SECONDS: '0',
    };
    // API only: it answers webhooks, and no payments worker runs in it.
    g = first = await startTestInstance({ env: { ...env, PROCESS_ROLE: 'api' } });
  });
  afterAll(async () => {
    if (g && g !== first) await g.stop();
    await first?.destroy();
    await api?.close();
  });

  test('given deliveries answered 200 by a process that then stops, then each is recorded once and the next process logs and processes every one once', async () => {
    const ids = Array.from({ length: 20 }, (_, i) => `evt_${run}_${String(i).padStart(3, '0')}`);
    // Each event twice at once: one recording, one duplicate.
    const answers = await Promise.all(ids.flatMap((id) => [deliver(eventBody(id)), deliver(eventBody(id))]));
    for (const a of answers) assert.equal(a.status, 200, JSON.stringify(a.json));
    for (const id of ids) {
      const mine = answers.filter((a) => a.json['eventId'] === id);
      assert.deepEqual(mine.map((a) => a.json['duplicate']).sort(), [false, true], id);
    }
    // Answered means committed: another connection sees every row, none on the log yet (no worker here).
    const recorded = await rows(
      'SELECT event_id, logged_at FROM payment_webhook_inbox WHERE event_id = ANY($1::text[])',
      [ids],
    );
    assert.equal(recorded.length, ids.length);
    assert.ok(recorded.every((r) => r.logged_at === null));
    assert.equal(await onLog(ids), 0);

    // The answering process goes away; a full one on the same database takes over.
    await g.stop();
    g = await startTestInstance({
      env: { ...env, PORT: new URL(g.url).port },
      reuse: { databaseUrl: g.databaseUrl, dataDir: g.dataDir, drop: async () => undefined },
    });
    await eventually('every recorded event on the log', async () => (await onLog(ids)) === ids.length);
    await eventually(
      'every recorded event processed',
      async () =>
        Number(
          (
            await rows(
              `SELECT count(*) AS n FROM rm_payment_webhook_events
               WHERE event_id = ANY($1::text[]) AND processed_at IS NOT NULL`,
              [ids],
            )
          )[0].n,
        ) === ids.length,
    );
    const logged = await rows(
      'SELECT payload, logged_at FROM payment_webhook_inbox WHERE event_id = ANY($1::text[])',
      [ids],
    );
    assert.ok(logged.every((r) => r.logged_at !== null && r.payload === null));

    // Redelivered later: a duplicate, nothing written.
    const again = await deliver(eventBody(ids[0]!));
    assert.equal(again.status, 200);
    assert.equal(again.json['duplicate'], true);

    // A crash between the worker's append and its mark: the row is pending again, with its payload.
    await rows('UPDATE payment_webhook_inbox SET logged_at = NULL, payload = $2 WHERE event_id = $1', [
      ids[1],
      eventBody(ids[1]!),
    ]);
    await g.instance.paymentsWorker!.runOnce();
    assert.equal(await onLog(ids), ids.length);
    const [row] = await rows('SELECT logged_at FROM payment_webhook_inbox WHERE event_id = $1', [ids[1]]);
    assert.notEqual(row.logged_at, null);
  });

  test('given webhook events among thousands of other events, and one whose processing fails once, then the consumer walks past the others, retries that one and processes each once', async () => {
    const processed = async (ids: readonly string[]) =>
      await rows(
        `SELECT event_id, outcome FROM rm_payment_webhook_events
         WHERE event_id = ANY($1::text[]) AND processed_at IS NOT NULL ORDER BY event_id`,
        [ids],
      );
    const before = `evt_${run}_walk_before`;
    assert.equal((await deliver(eventBody(before))).status, 200);
    await eventually('the first one processed', async () => (await processed([before])).length === 1);
    // More events than the consumer walks in one query (5,000), none of them a webhook's.
    await appendNewAgents(g.instance.services, 6_000, 'Walked past');
    // A completion of a checkout never recorded here: the consumer asks Stripe for the session, and
    // Stripe fails that call once (then answers that it has no such session: unknown_checkout).
    api.failNext({
      method: 'GET',
      pathPrefix: '/v1/checkout/sessions',
      error: { status: 400, type: 'invalid_request_error', message: 'try again' },
    });
    const failing = `evt_${run}_walk_failing`;
    const completion = JSON.stringify({
      id: failing,
      object: 'event',
      api_version: STRIPE_API_VERSION,
      created: Math.floor(Date.now() / 1000),
      data: {
        object: {
          id: `cs_${run}_never_recorded`,
          object: 'checkout.session',
          payment_status: 'paid',
          payment_intent: `pi_${run}_never_recorded`,
          metadata: { requesterInstanceId: 'some-instance', obligationId: `ob_${run}_unknown` },
        },
      },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type: 'checkout.session.completed',
    });
    assert.equal((await deliver(completion)).status, 200);
    const after = `evt_${run}_walk_after`;
    assert.equal((await deliver(eventBody(after))).status, 200);
    await eventually(
      'all three processed',
      async () => (await processed([before, failing, after])).length === 3,
      60_000,
    );
    assert.deepEqual(
      (await processed([failing])).map((r) => r.outcome),
      ['unknown_checkout'],
    );
    // Each processed once on the log, and the consumer's checkpoint is at the end of the log.
    const marks = await rows(
      `SELECT envelope::jsonb->'data'->>'eventId' AS id, count(*)::int AS n FROM events
       WHERE type = 'payment.webhook_event_processed' AND envelope::jsonb->'data'->>'eventId' = ANY($1::text[])
       GROUP BY 1 ORDER BY 1`,
      [[before, failing, after]],
    );
    assert.deepEqual(
      marks,
      [after, before, failing].sort().map((id) => ({ id, n: 1 })),
    );
    await g.instance.paymentsWorker!.runOnce();
    const [cp] = await rows(
      `SELECT (SELECT seq FROM projection_checkpoints WHERE name = 'consumer:payments-webhooks') AS at,
              (SELECT max(seq) FROM event_sequence) AS head`,
    );
    assert.ok(Number(cp.at) >= Number(cp.head) - 5, `checkpoint ${cp.at}, head ${cp.head}`);
  }, 120_000);

  test('given a signed event whose id is too long to record, then 400 payments.webhook_malformed and nothing is written', async () => {
    const id = `evt_${'x'.repeat(300)}`;
    const before = await rows('SELECT count(*) AS n FROM payment_webhook_inbox');
    const r = await deliver(eventBody(id));
    assert.equal(r.status, 400, JSON.stringify(r.json));
    assert.equal(r.json['code'], 'payments.webhook_malformed');
    assert.deepEqual(await rows('SELECT count(*) AS n FROM payment_webhook_inbox'), before);
  });

  test('given deliveries answered by the server’s fast path in front of the app, then they are counted under the route’s own label', async () => {
    const metrics = async () => (await fetch(`${g.url}/metrics`)).text();
    const counted = (text: string, status: number) =>
      Number(
        new RegExp(
          `^tributary_http_requests_total\\{[^}]*route="/api/federation/stripe/webhook"[^}]*status="${status}"[^}]*\\} (\\d+)`,
          'm',
        ).exec(text)?.[1] ?? 0,
      );
    const before = await metrics();
    assert.equal((await deliver(eventBody(`evt_${run}_metrics`))).status, 200);
    const bad = await fetch(`${g.url}/api/federation/stripe/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=00' },
      body: eventBody(`evt_${run}_unsigned`),
    });
    assert.equal(bad.status, 400);
    assert.equal(((await bad.json()) as { code: string }).code, 'payments.webhook_signature_invalid');
    const after = await metrics();
    assert.equal(counted(after, 200), counted(before, 200) + 1, after);
    assert.equal(counted(after, 400), counted(before, 400) + 1, after);
  });

  test('given refused deliveries from one address, some answered by the fast path and some by the app’s route, then they share one budget: past it both answer 429, while Stripe’s own deliveries from another address go on', async () => {
    const limited = await startTestInstance({
      env: { ...env, PROCESS_ROLE: 'api', RATE_LIMIT_WEBHOOK_REFUSALS: '2/min', TRUST_PROXY: 'loopback' },
    });
    try {
      const send = (o: { body: string; from: string; signature?: string; gzip?: boolean }) =>
        fetch(`${limited.url}/api/federation/stripe/webhook`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'x-forwarded-for': o.from,
            'stripe-signature': o.signature ?? api.signatureHeader(o.body, secret),
            // A compressed body is left to the app's route (the fast path takes identity only).
            ...(o.gzip && { 'content-encoding': 'gzip' }),
          },
          body: o.gzip ? gzipSync(o.body) : o.body,
        });
      const junk = eventBody(`evt_${run}_junk`);
      const fast = await send({ body: junk, from: '198.51.100.4', signature: 't=1,v1=00' });
      assert.equal(fast.status, 400);
      const viaApp = await send({ body: junk, from: '198.51.100.4', signature: 't=1,v1=00', gzip: true });
      assert.equal(viaApp.status, 400);
      assert.equal(((await viaApp.json()) as { code: string }).code, 'payments.webhook_signature_invalid');
      for (const gzip of [false, true]) {
        const r = await send({ body: eventBody(`evt_${run}_held_${gzip}`), from: '198.51.100.4', gzip });
        assert.equal(r.status, 429, `gzip ${gzip}`);
        assert.equal(r.headers.get('retry-after'), '30');
        assert.equal(((await r.json()) as { code: string }).code, 'request.rate_limited');
      }
      const stripe = await send({ body: eventBody(`evt_${run}_stripe`), from: '198.51.100.9' });
      assert.equal(stripe.status, 200);
      const held = await limited.instance.pool.query(
        `SELECT count(*) AS n FROM payment_webhook_inbox WHERE event_id LIKE $1`,
        [`evt_${run}_held_%`],
      );
      assert.equal(Number(held.rows[0].n), 0);
    } finally {
      await limited.destroy();
    }
  });
});
