// On the seller's instance (docs/payments.md#checkout): records what the buyer owes first, then asks the
// global instance for a checkout (a signed request; in place on the global instance itself), and notes the
// session. Only a settlement for an obligation recorded here is ever accepted.
import {
  decideOpenObligationCheckout,
  decideRecordObligation,
  isGlobalInstance,
  paymentCheckoutStream,
  paymentObligationStream,
  type CheckoutState,
  requireLineItems,
  DomainError,
  isDomainError,
  type ObligationState,
} from '@tributary/domain';
import { z } from 'zod';
import { commitEvents, execute } from '../pipeline/execute.js';
import { definePaymentsOperation } from './payments-operation.js';
import { targetAgentId } from '../shared/schemas.js';
import {
  checkoutOutput,
  createCheckout,
  currencyInput,
  lineItemInput,
  obligationIdInput,
  urlOnInstanceInput,
} from './create-checkout.js';
import {
  requestHash,
  requireIdempotencyKey,
  obligationIdFor,
  requireUrlOnInstance,
  scopedObligationId,
} from './payments-of.js';
import { onceAgainOnConflict, platformUrlOf, readStates } from './support.js';

export const startCheckout = definePaymentsOperation({
  name: 'svc.payments.start_checkout',
  title: 'Start a checkout for something you sell',
  description:
    'Records what a buyer owes you (the obligation; its id is the idempotency key) and opens a Stripe checkout ' +
    'for it through the global instance; answers the checkout URL. Success and cancel URLs are on this instance.',
  kind: 'command',
  scopes: ['svc.wallet.spend'],
  enabledFor: ['session', 'token'],
  input: z.strictObject({
    targetAgentId,
    obligationId: obligationIdInput,
    lineItems: z.array(lineItemInput).max(100),
    currency: currencyInput,
    description: z.string().max(500).optional(),
    successUrl: urlOnInstanceInput,
    cancelUrl: urlOnInstanceInput,
  }),
  output: checkoutOutput,
  async run(ctx, input) {
    const payments = ctx.services.payments;
    const key = requireIdempotencyKey(input.obligationId, 'obligationId');
    const { items, amount, currency } = requireLineItems(
      input.lineItems.map((i) => ({ ...i, quantity: i.quantity ?? 1 })),
      input.currency,
    );
    const successUrl = requireUrlOnInstance(input.successUrl, ctx.instance.baseUrl, 'successUrl');
    const cancelUrl = requireUrlOnInstance(input.cancelUrl, ctx.instance.baseUrl, 'cancelUrl');
    const global = isGlobalInstance(ctx.instance.role);
    // Known before anything is recorded: with no platform to ask, nothing is written.
    const platformUrl = global ? null : await platformUrlOf(ctx.services);
    if (!global && !payments.platform)
      throw new DomainError('payments.disabled', 'unavailable', 'no client for the payment platform here');
    const sellerAgentId = ctx.actor.agentId;
    // The key is the seller's own: recorded as it is while no one else holds it, else under an id
    // derived from it and the seller, so another person's use of the same key neither blocks nor
    // answers this one. On the global instance a key is held by an obligation or by a checkout one of its
    // people opened at the platform's route.
    const ownerOf = async (id: string): Promise<string | null> => {
      const obligation = paymentObligationStream(id);
      const checkout = paymentCheckoutStream(ctx.instance.instanceId, id);
      const states = await readStates(ctx.services, global ? [obligation, checkout] : [obligation]);
      const o = states.get(obligation) as ObligationState;
      if (o.exists) return o.sellerAgentId;
      const c = states.get(checkout) as CheckoutState | undefined;
      return c?.exists ? (c.seller?.agentId ?? '') : null;
    };
    let obligationId = obligationIdFor(sellerAgentId, key, await ownerOf(key));
    const record = (stream: string) =>
      ctx.commit(
        [stream],
        (s) =>
          decideRecordObligation(
            {
              obligationId,
              ...(obligationId !== key && { key }),
              sellerAgentId,
              lineItems: items,
              amount,
              currency,
              description: input.description ?? null,
              requestHash: requestHash({ sellerAgentId, items, currency, successUrl, cancelUrl }),
              now: ctx.now.toISOString(),
            },
            s.get(stream) as ObligationState,
          ),
        { retries: 3 },
      );
    try {
      await record(paymentObligationStream(obligationId));
    } catch (e) {
      // Another seller took the bare key between the look and the record: this seller's is scoped.
      if (obligationId !== key || !isDomainError(e) || e.code !== 'payments.idempotency_key_reused') throw e;
      if ((await ownerOf(key)) === sellerAgentId) throw e;
      obligationId = scopedObligationId(sellerAgentId, key);
      await record(paymentObligationStream(obligationId));
    }
    const stream = paymentObligationStream(obligationId);
    const request = { obligationId, lineItems: items, currency, successUrl, cancelUrl };
    const session = global
      ? (
          await execute(
            ctx.services,
            createCheckout,
            // For the acting agent (a persona too), under the obligation's own id.
            { ...request, targetAgentId: sellerAgentId },
            ctx.principal,
            'system',
          )
        ).result
      : await payments.platform!.checkout(platformUrl!, { ...request, sellerAgentId });
    await onceAgainOnConflict(() =>
      commitEvents(
        ctx.services,
        [stream],
        (s) =>
          decideOpenObligationCheckout(
            { obligationId, sessionId: session.sessionId, url: session.url },
            s.get(stream) as ObligationState,
          ),
        ctx.actor.agentId,
      ),
    );
    return { obligationId: key, sessionId: session.sessionId, url: session.url };
  },
});
