// POST /api/federation/stripe/checkout on the global instance (docs/payments.md#checkout): a Checkout
// Session for a seller's obligation, paid to the seller's connected account. The obligation id is the
// idempotency key: the same request again answers the same session; another request under it is refused.
import {
  decideRecordCheckout,
  checkRepeatCheckout,
  paymentAccountStream,
  paymentCheckoutStream,
  requireChargeableAccount,
  requireLineItems,
  type CheckoutState,
  type ConnectedAccountState,
  type PaymentParty,
} from '@tributary/domain';
import { z } from 'zod';
import { definePaymentsOperation, type PaymentsOperationContext } from './payments-operation.js';
import { targetAgentId } from '../shared/schemas.js';
import {
  processorKey,
  processorOf,
  requestHash,
  requireIdempotencyKey,
  obligationIdFor,
  requireUrlOnInstance,
} from './payments-of.js';
import { partyOf, readStates, requesterOf, type Requester } from './support.js';

// Typed, no tighter: amounts, currencies, keys and URLs of the right type that break the rules are
// refused with their own payments.* codes, not as a schema mismatch.
export const lineItemInput = z.strictObject({
  name: z.string(),
  amount: z.number().describe('unit price in minor units (cents), a positive integer'),
  quantity: z.number().optional().describe('a positive integer; 1 when omitted'),
});
export const obligationIdInput = z
  .string()
  .describe('the idempotency key naming what is owed: 8–64 characters of A-Za-z0-9_-');
export const currencyInput = z.string().describe('a currency this instance takes, lower case (e.g. usd)');
export const urlOnInstanceInput = z.string().describe('a URL on this instance');
export const checkoutInput = z.strictObject({
  targetAgentId,
  obligationId: obligationIdInput,
  sellerAgentId: z.string().min(1).max(255).optional(),
  lineItems: z.array(lineItemInput).max(100),
  currency: currencyInput,
  successUrl: urlOnInstanceInput,
  cancelUrl: urlOnInstanceInput,
});

export const checkoutOutput = z.object({ obligationId: z.string(), sessionId: z.string(), url: z.string() });

/**
 * The id a checkout is recorded under, per requester (docs/payments.md#checkout). A peer's key is the
 * requesting instance's, already scoped to its seller there; so is the one this instance's own
 * start_checkout hands over (the surface `system`). A person here naming a key at this route has it as
 * it is while no one else's checkout holds it, else scoped to them, as start_checkout does, so one
 * person's key never blocks another's.
 */
async function checkoutIdOf(
  ctx: PaymentsOperationContext,
  requester: Requester,
  seller: PaymentParty,
  key: string,
): Promise<string> {
  if (requester.remote || ctx.surface === 'system') return key;
  const bare = paymentCheckoutStream(requester.instanceId, key);
  const held = (await readStates(ctx.services, [bare])).get(bare) as CheckoutState;
  return obligationIdFor(seller.agentId, key, held.exists ? (held.seller?.agentId ?? '') : null);
}

export const createCheckout = definePaymentsOperation({
  name: 'svc.payments.create_checkout',
  title: 'Open a checkout on the payment platform',
  description:
    'On the global instance: a Stripe Checkout Session for a seller’s recorded obligation, paid to the seller’s ' +
    'connected account; the obligation id is the idempotency key.',
  kind: 'command',
  scopes: ['svc.wallet.spend'],
  enabledFor: [],
  // POST /api/federation/stripe/checkout: peer-signed, or a session of the global instance's own people.
  ownEndpoint: true,
  input: checkoutInput,
  output: checkoutOutput,
  async run(ctx, input) {
    const requester = await requesterOf(ctx, 'open a checkout');
    const processor = processorOf(ctx.services);
    const key = requireIdempotencyKey(input.obligationId, 'obligationId');
    const { items, amount, currency } = requireLineItems(
      input.lineItems.map((i) => ({ ...i, quantity: i.quantity ?? 1 })),
      input.currency,
    );
    const successUrl = requireUrlOnInstance(input.successUrl, requester.baseUrl, 'successUrl');
    const cancelUrl = requireUrlOnInstance(input.cancelUrl, requester.baseUrl, 'cancelUrl');
    const seller = partyOf(requester, input.sellerAgentId, ctx);
    const obligationId = await checkoutIdOf(ctx, requester, seller, key);
    const hash = requestHash({ seller, items, currency, successUrl, cancelUrl });
    const stream = paymentCheckoutStream(requester.instanceId, obligationId);
    const accountStream = paymentAccountStream(seller.instanceId, seller.agentId);
    // A repeat answers what was recorded, without calling Stripe again.
    const states = await readStates(ctx.services, [stream, accountStream]);
    const existing = checkRepeatCheckout(hash, states.get(stream) as CheckoutState);
    if (existing) return { obligationId: key, sessionId: existing.sessionId!, url: existing.url! };
    const connectedAccountId = requireChargeableAccount(states.get(accountStream) as ConnectedAccountState);
    const metadata = {
      obligationId,
      requesterInstanceId: requester.instanceId,
      sellerInstanceId: seller.instanceId,
      sellerAgentId: seller.agentId,
      // With the session's own items, currency and URLs, enough to record it from Stripe should its
      // creation never reach our log (a crash right after Stripe answered; services/src/payments/webhooks.ts).
      requestedBy: requester.agentId,
      requestHash: hash,
    };
    const session = await processor.createCheckoutSession(
      { lineItems: items, currency, successUrl, cancelUrl, connectedAccountId, metadata },
      processorKey('checkout', requester.instanceId, obligationId, hash),
    );
    ctx.services.payments?.failpoint?.('checkout.after-processor');
    await ctx.commit(
      [stream],
      (s) =>
        decideRecordCheckout(
          {
            requesterInstanceId: requester.instanceId,
            obligationId,
            seller,
            connectedAccountId,
            requestedBy: requester.agentId,
            lineItems: items,
            amount,
            currency,
            successUrl,
            cancelUrl,
            requestHash: hash,
            sessionId: session.sessionId,
            url: session.url,
            now: ctx.now.toISOString(),
          },
          s.get(stream) as CheckoutState,
        ),
      { retries: 3 },
    );
    return { obligationId: key, sessionId: session.sessionId, url: session.url };
  },
});
