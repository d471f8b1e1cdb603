// A seller on a sovereign instance sets up their payment account through their own instance
// (docs/payments.md#connected-accounts): `svc.wallet.start_onboarding` on A asks the global instance G over
// the signed peer channel for the seller's connected account and an onboarding link, and
// `svc.wallet.read_platform_account` asks G for its state, which follows Stripe's webhooks. Real
// instances on loopback, G's Stripe calls going to the loopback server that speaks Stripe's API.
import { browser, eventually, startStripeApiServer, type StripeApiServer } from '@tributary/test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { errorCodeOf, mcpClient, structured } from '../e2e/mcp-helpers.js';
import { password, startNode, startPeeredInstances, type Loose, type Node } from './federation-helpers.js';

/**
 * A loopback port nothing listens on: a privileged one, which no test takes (they listen on port 0),
 * unlike a port taken and let go, which a parallel test may be given next.
 */
const CLOSED_PORT = 1;

describe('onboarding a sovereign instance’s seller through their own instance', () => {
  let stripe: StripeApiServer;
  let g: Node;
  let a: Node;
  /** A sovereign whose GLOBAL_URL answers nothing. */
  let lost: Node;
  /** A sovereign with no GLOBAL_URL: payments are off there. */
  let alone: Node;
  const webhookSecret = `whsec_${randomBytes(16).toString('hex')}`;

  const accountsOfA = () =>
    stripe.objects('account').filter((o) => (o as Loose).metadata?.instanceId === a.id).length;
  const accountEvents = async (n: Node) =>
    Number(
      (
        await n.instance.instance.pool.query(
          `SELECT count(*) AS n FROM events WHERE type = 'payment.connected_account_created'`,
        )
      ).rows[0].n,
    );

  beforeAll(async () => {
    stripe = await startStripeApiServer();
    [[g, a], lost, alone] = await Promise.all([
      startPeeredInstances({
        env: { FEDERATION_SYNC: 'off' },
        globalUrl: true,
        global: {
          name: 'Global',
          env: {
            STRIPE_SECRET_KEY: stripe.secretKey,
            STRIPE_WEBHOOK_SECRET: webhookSecret,
            STRIPE_API_BASE: stripe.url,
            PAYMENTS_WORKER_INTERVAL_MS: '100',
          },
        },
        sovereigns: [{ role: 'person', name: 'Alder' }],
      }),
      startNode('person', 'Lost', {
        FEDERATION_SYNC: 'off',
        GLOBAL_URL: `http://127.0.0.1:${CLOSED_PORT}`,
      }),
      startNode('person', 'Alone', { FEDERATION_SYNC: 'off' }),
    ]);
    stripe.addWebhookEndpoint({ url: `${g.url}/api/federation/stripe/webhook`, secret: webhookSecret });
    stripe.addWebhookEndpoint({
      url: `${g.url}/api/federation/stripe/webhook`,
      secret: webhookSecret,
      connect: true,
    });
  });
  afterAll(async () => {
    await Promise.all([
      g?.instance.destroy(),
      a?.instance.destroy(),
      lost?.instance.destroy(),
      alone?.instance.destroy(),
    ]);
    await stripe?.close();
  });

  test('given a seller on A, when they start onboarding on A, then G creates their connected account once, answers a link back to A, and A reads its state from G as Stripe updates it', async () => {
    const seller = browser(a.url);
    const signup = await seller.post('/api/auth/signup', { handle: 'sel', password, name: 'Sel' });
    assert.equal(signup.status, 201, signup.text);
    const sellerAgentId = signup.json.agentId as string;

    const none = await seller.post('/api/ops/svc.wallet.read_platform_account', {});
    assert.equal(none.status, 200, none.text);
    assert.deepEqual(none.json.result, { platform: g.url, account: null });

    const first = await seller.post('/api/ops/svc.wallet.start_onboarding', {
      country: 'DE',
      returnUrl: `${a.url}/home`,
    });
    assert.equal(first.status, 200, first.text);
    const { accountId, url, created } = first.json.result as Loose;
    assert.equal(created, true);
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\//);
    // G holds the account for A's agent; Stripe made it once, with A's return URL on the link.
    const row = (
      await g.instance.instance.pool.query(
        'SELECT instance_id, agent_id FROM rm_payment_accounts WHERE account_id = $1',
        [accountId],
      )
    ).rows[0] as Loose;
    assert.deepEqual(row, { instance_id: a.id, agent_id: sellerAgentId });
    const links = stripe.requests.filter((r) => r.path === '/v1/account_links' && r.method === 'POST');
    assert.equal(links.at(-1)!.params.return_url, `${a.url}/home`);
    assert.equal(links.at(-1)!.params.refresh_url, `${a.url}/`);
    // Signed by A: G saw A as the requester (no session of G was involved).
    assert.equal((stripe.object(accountId) as Loose).metadata.instanceId, a.id);

    // Again (an expired link, say): the same account, a fresh link, nothing created.
    const again = await seller.post('/api/ops/svc.wallet.start_onboarding', { country: 'DE' });
    assert.equal(again.status, 200, again.text);
    assert.equal(again.json.result.accountId, accountId);
    assert.equal(again.json.result.created, false);
    assert.equal(accountsOfA(), 1);
    assert.equal(await accountEvents(g), 1);

    const pending = await seller.post('/api/ops/svc.wallet.read_platform_account', {});
    assert.equal(pending.json.result.account.accountId, accountId);
    assert.equal(pending.json.result.account.chargesEnabled, false);

    // The seller finishes at Stripe; account.updated reaches G; A's read asks G and sees it.
    stripe.completeOnboarding(accountId);
    const done = await eventually('the account enabled, as A reads it from G', async () => {
      const r = await seller.post('/api/ops/svc.wallet.read_platform_account', {});
      return r.json.result.account?.payoutsEnabled === true ? r.json.result.account : undefined;
    });
    assert.equal(done.chargesEnabled, true);
    assert.equal(done.detailsSubmitted, true);
    assert.equal(done.country, 'DE');

    // The same through MCP: a token with svc.wallet.read reads; starting needs svc.wallet.spend.
    const reader = await seller.post('/api/mcp/token', { label: 'reader', scopes: ['svc.wallet.read'] });
    assert.equal(reader.status, 201, reader.text);
    const client = await mcpClient(a.url, { bearer: reader.json.token });
    try {
      const read = await client.callTool({ name: 'svc.wallet.read_platform_account', arguments: {} });
      assert.equal(structured(read).account.accountId, accountId);
      const start = await client.callTool({
        name: 'svc.wallet.start_onboarding',
        arguments: { country: 'DE' },
      });
      assert.equal(errorCodeOf(start), 'auth.insufficient_scope');
    } finally {
      await client.close();
    }
    const spender = await seller.post('/api/mcp/token', { label: 'spender', scopes: ['svc.wallet.spend'] });
    const spend = await mcpClient(a.url, { bearer: spender.json.token });
    try {
      const link = await spend.callTool({
        name: 'svc.wallet.start_onboarding',
        arguments: { country: 'DE' },
      });
      assert.equal(structured(link).accountId, accountId);
    } finally {
      await spend.close();
    }
    assert.equal(accountsOfA(), 1);
  });

  test('given bad input, payments off, or G unreachable, then each is refused with its code and nothing reaches G or Stripe', async () => {
    const seller = browser(a.url);
    const signup = await seller.post('/api/auth/signup', { handle: 'sel2', password, name: 'Sel 2' });
    assert.equal(signup.status, 201, signup.text);
    const accounts = accountsOfA();
    const calls = stripe.requests.length;
    const before = await accountEvents(g);
    const refusals: [Loose, string][] = [
      [{}, 'payments.country_required'],
      [{ country: 'Germany' }, 'payments.country_required'],
      [{ country: 'DE', returnUrl: 'https://elsewhere.example/done' }, 'payments.url_off_instance'],
      [{ country: 'DE', refreshUrl: `${g.url}/again` }, 'payments.url_off_instance'],
      [{ country: 'DE', requestId: 'short' }, 'payments.idempotency_key_invalid'],
    ];
    for (const [input, code] of refusals) {
      const r = await seller.post('/api/ops/svc.wallet.start_onboarding', input);
      assert.equal(r.status, 400, r.text);
      assert.equal(r.json.code, code, JSON.stringify(input));
    }
    assert.equal(accountsOfA(), accounts);
    assert.equal(stripe.requests.length, calls);
    assert.equal(await accountEvents(g), before);

    // No global instance configured: payments are off here.
    const off = await alone.operator.post('/api/ops/svc.wallet.start_onboarding', { country: 'DE' });
    assert.equal(off.status, 503, off.text);
    assert.equal(off.json.code, 'payments.disabled');
    const offRead = await alone.operator.post('/api/ops/svc.wallet.read_platform_account', {});
    assert.equal(offRead.status, 503, offRead.text);
    assert.equal(offRead.json.code, 'payments.disabled');

    // The global instance cannot be reached.
    const unreachable = await lost.operator.post('/api/ops/svc.wallet.start_onboarding', { country: 'DE' });
    assert.equal(unreachable.status, 503, unreachable.text);
    assert.equal(unreachable.json.code, 'federation.peer_unreachable');
    const unreachableRead = await lost.operator.post('/api/ops/svc.wallet.read_platform_account', {});
    assert.equal(unreachableRead.status, 503, unreachableRead.text);
    assert.equal(unreachableRead.json.code, 'federation.peer_unreachable');
    assert.equal(accountsOfA(), accounts);
  });
});
