// A sovereign instance finds its payment platform among its peers (docs/payments.md#configuration): A has
// no GLOBAL_URL, only the global instance G registered as a peer (role global), as single sign-on uses it.
// A's seller onboards, sells and is paid out through G; a payout above G's threshold is confirmed by G's
// operator with a token over MCP, as every tool but the data export may be (interface §5.2). Real
// instances on loopback, G's Stripe calls going to the loopback server that speaks Stripe's API.
import { eventually, startStripeApiServer, type StripeApiServer } from '@tributary/test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { errorCodeOf, mcpClient, structured } from '../e2e/mcp-helpers.js';
import { startPeeredInstances, type Loose, type Node } from './federation-helpers.js';

describe('a sovereign instance whose payment platform is its registered global peer', () => {
  let stripe: StripeApiServer;
  let g: Node;
  let a: Node;
  const webhookSecret = `whsec_${randomBytes(16).toString('hex')}`;

  beforeAll(async () => {
    stripe = await startStripeApiServer({ platformBalance: { eur: 1_000_000 } });
    // No globalUrl: A is not given GLOBAL_URL; G and A are registered as each other's peers.
    [g, a] = await startPeeredInstances({
      env: { FEDERATION_SYNC: 'off' },
      global: {
        name: 'Global',
        env: {
          STRIPE_SECRET_KEY: stripe.secretKey,
          STRIPE_WEBHOOK_SECRET: webhookSecret,
          STRIPE_API_BASE: stripe.url,
          PAYMENTS_PAYOUT_CONFIRM_ABOVE: '5000',
          PAYMENTS_WORKER_INTERVAL_MS: '100',
        },
      },
      sovereigns: [{ role: 'person', name: 'Alder' }],
    });
    const hook = `${g.url}/api/federation/stripe/webhook`;
    stripe.addWebhookEndpoint({ url: hook, secret: webhookSecret });
    stripe.addWebhookEndpoint({ url: hook, secret: webhookSecret, connect: true });
  });
  afterAll(async () => {
    await Promise.all([g?.instance.destroy(), a?.instance.destroy()]);
    await stripe?.close();
  });

  test('given no GLOBAL_URL on A but G registered as its global peer, when A’s seller onboards and starts a checkout, then both go through G', async () => {
    const onboarding = await a.operator.post('/api/ops/svc.wallet.start_onboarding', { country: 'DE' });
    assert.equal(onboarding.status, 200, onboarding.text);
    const { accountId } = onboarding.json.result as Loose;
    assert.equal((stripe.object(accountId) as Loose).metadata.instanceId, a.id);
    stripe.completeOnboarding(accountId);
    await eventually('the account enabled, as A reads it from G', async () => {
      const r = await a.operator.post('/api/ops/svc.wallet.read_platform_account', {});
      return r.json.result?.account?.chargesEnabled === true ? r.json.result : undefined;
    });
    const read = await a.operator.post('/api/ops/svc.wallet.read_platform_account', {});
    assert.equal(read.json.result.platform, g.url);

    const obligationId = `ob-${randomBytes(6).toString('hex')}`;
    const checkout = await a.operator.post('/api/ops/svc.payments.start_checkout', {
      obligationId,
      lineItems: [{ name: 'A hand-bound notebook', amount: 1200, quantity: 1 }],
      currency: 'eur',
      successUrl: `${a.url}/paid`,
      cancelUrl: `${a.url}/cancelled`,
    });
    assert.equal(checkout.status, 201, checkout.text);
    assert.match(checkout.json.result.sessionId, /^cs_test_/);
    const row = (
      await g.instance.instance.pool.query(
        'SELECT seller_agent_id FROM rm_payment_checkouts WHERE requester_instance_id = $1 AND obligation_id = $2',
        [a.id, obligationId],
      )
    ).rows as Loose[];
    assert.deepEqual(row, [{ seller_agent_id: a.operatorAgentId }]);
  });

  test('given a payout from A above G’s threshold, when G’s operator confirms it with a token over MCP, then it is paid once; a token without svc.admin is refused', async () => {
    const idempotencyKey = `po-${randomBytes(6).toString('hex')}`;
    const asked = await a.operator.post('/api/ops/svc.wallet.start_payout', {
      payeeAgentId: a.operatorAgentId,
      amount: 6000,
      currency: 'eur',
      idempotencyKey,
      reference: 'a job',
    });
    assert.equal(asked.status, 200, asked.text);
    assert.equal(asked.json.result.status, 'awaiting_confirmation');
    const transfers = stripe.objects('transfer').length;

    const spender = await g.operator.post('/api/mcp/token', {
      label: 'spender',
      scopes: ['svc.wallet.spend'],
    });
    assert.equal(spender.status, 201, spender.text);
    const narrow = await mcpClient(g.url, { bearer: spender.json.token });
    try {
      const refused = await narrow.callTool({
        name: 'svc.payments.confirm_payout',
        arguments: { requesterInstanceId: a.id, idempotencyKey },
      });
      assert.equal(errorCodeOf(refused), 'auth.insufficient_scope');
    } finally {
      await narrow.close();
    }
    assert.equal(stripe.objects('transfer').length, transfers);

    const admin = await g.operator.post('/api/mcp/token', {
      label: 'payouts',
      scopes: ['svc.admin', 'svc.wallet.spend'],
    });
    assert.equal(admin.status, 201, admin.text);
    const client = await mcpClient(g.url, { bearer: admin.json.token });
    try {
      const confirmed = await client.callTool({
        name: 'svc.payments.confirm_payout',
        arguments: { requesterInstanceId: a.id, idempotencyKey },
      });
      assert.equal(structured(confirmed).status, 'paid');
      const again = await client.callTool({
        name: 'svc.payments.confirm_payout',
        arguments: { requesterInstanceId: a.id, idempotencyKey },
      });
      assert.equal(structured(again).transferId, structured(confirmed).transferId);
    } finally {
      await client.close();
    }
    assert.equal(stripe.objects('transfer').length, transfers + 1);
  });
});
