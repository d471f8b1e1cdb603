// A crash between Stripe's answer and our record of it makes no second transfer: the global instance runs
// as a real process (`tributary start`) with a failpoint that SIGKILLs it right after Stripe answered a
// transfer (or a refund) and before the outcome is on our log. Started again, the same request is sent
// again: the Idempotency-Key derived from our records makes Stripe answer the first result, so Stripe
// holds one transfer (one refund) and our log records it once.
import {
  browser,
  eventually,
  startStripeApiServer,
  startTestInstance,
  type StripeApiServer,
  type TestInstance,
} from '@tributary/test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { ready, startProcess, type StartedProcess } from './start-helpers.js';

describe('a payout interrupted by a crash after Stripe answered', () => {
  let stripe: StripeApiServer;
  let setup: TestInstance;
  let proc: StartedProcess | undefined;
  const webhookSecret = `whsec_${randomBytes(16).toString('hex')}`;

  beforeAll(async () => {
    stripe = await startStripeApiServer({ platformBalance: { eur: 1_000_000 } });
  });
  afterAll(async () => {
    proc?.child.kill('SIGKILL');
    await setup?.destroy();
    await stripe?.close();
  });

  test('given a process killed between the transfer and its record, when it starts again and the payout is asked again, then Stripe holds one transfer and the log one', async () => {
    const stripeEnv = {
      STRIPE_SECRET_KEY: stripe.secretKey,
      STRIPE_WEBHOOK_SECRET: webhookSecret,
      STRIPE_API_BASE: stripe.url,
      PAYMENTS_WORKER_INTERVAL_MS: '100',
    };
    setup = await startTestInstance({
      env: { INSTANCE_ROLE: 'global', INSTANCE_NAME: 'Global', ...stripeEnv },
    });
    const url = setup.url;
    const port = new URL(url).port;
    stripe.addWebhookEndpoint({
      url: `${url}/api/federation/stripe/webhook`,
      secret: webhookSecret,
      connect: true,
    });
    const ada = browser(url);
    const signup = await ada.post('/api/auth/signup', {
      handle: 'ada',
      password: 'correct horse battery staple',
    });
    assert.equal(signup.status, 201, signup.text);
    // Ada, one of the global instance's own people, is onboarded and can be paid out.
    const onboard = await ada.post('/api/federation/connect/onboarding', {
      country: 'DE',
      refreshUrl: `${url}/onboarding/refresh`,
      returnUrl: `${url}/onboarding/done`,
    });
    assert.equal(onboard.status, 200, onboard.text);
    const accountId = onboard.json.result.accountId as string;
    stripe.completeOnboarding(accountId);
    const enabled = async () =>
      Number(
        (
          await setup.instance.pool.query(
            'SELECT count(*) AS n FROM rm_payment_accounts WHERE account_id = $1 AND payouts_enabled',
            [accountId],
          )
        ).rows[0].n,
      ) === 1;
    await eventually('the account enabled', enabled);
    await stripe.waitForDeliveries();
    await setup.stop();

    const env = {
      NODE_ENV: 'test',
      DATABASE_URL: setup.databaseUrl,
      TRIBUTARY_DATA_DIR: setup.dataDir,
      PORT: port,
      BASE_URL: url,
      LOG_LEVEL: 'warn',
      FEDERATION_SYNC: 'off',
      INSTANCE_ROLE: 'global',
      INSTANCE_NAME: 'Global',
      ...stripeEnv,
    };
    // Ada is also the instance's operator (its first account): she pays herself, as only an operator may.
    const payout = {
      payeeAgentId: signup.json.agentId as string,
      amount: 4200,
      currency: 'eur',
      idempotencyKey: `job-${randomBytes(6).toString('hex')}`,
      reference: 'job 7',
    };
    proc = startProcess({ ...env, TRIBUTARY_FAILPOINTS: 'payments.payout.after-processor' });
    await ready(Number(port), proc);
    const interrupted = await ada.post('/api/federation/connect/payout', payout).catch((e: Error) => e);
    assert.ok(
      interrupted instanceof Error,
      `the payout should not have been answered: ${JSON.stringify(interrupted)}`,
    );
    await proc.exited;
    assert.equal(proc.child.signalCode, 'SIGKILL', proc.output());
    const transfersTo = () =>
      stripe.objects('transfer').filter((t) => (t as { destination?: string }).destination === accountId);
    assert.equal(transfersTo().length, 1, 'Stripe made the transfer before the crash');

    const log = async () => {
      const client = new pg.Client({ connectionString: setup.databaseUrl });
      await client.connect();
      try {
        const { rows } = await client.query<{ type: string }>(
          `SELECT type FROM events WHERE stream LIKE 'payment-payout-%' AND envelope::jsonb->'data'->>'idempotencyKey' = $1 ORDER BY position`,
          [payout.idempotencyKey],
        );
        return rows.map((r) => r.type);
      } finally {
        await client.end();
      }
    };
    // The request was recorded before Stripe was called; its outcome never was.
    assert.deepEqual(await log(), ['payment.payout_requested']);

    proc = startProcess(env);
    await ready(Number(port), proc);
    const retried = await ada.post('/api/federation/connect/payout', payout);
    assert.equal(retried.status, 200, retried.text);
    assert.equal(retried.json.result.status, 'paid');
    assert.equal(transfersTo().length, 1, 'no second transfer');
    assert.equal(retried.json.result.transferId, (transfersTo()[0] as { id: string }).id);
    assert.deepEqual(await log(), ['payment.payout_requested', 'payment.transfer_created']);
    // Stripe saw the key twice and ran the transfer once; the second answer was the saved one.
    const keys = stripe.requests
      .filter((r) => r.path === '/v1/transfers' && r.method === 'POST')
      .map((r) => r.idempotencyKey);
    assert.equal(keys.length, 2);
    assert.equal(new Set(keys).size, 1);
    const replay = stripe.idempotency(String(keys[0]));
    assert.equal(replay.executions, 1);
    assert.equal(replay.replays, 1);
    const again = await ada.post('/api/federation/connect/payout', payout);
    assert.equal(again.json.result.transferId, retried.json.result.transferId);
    assert.equal(transfersTo().length, 1);
  });
});
