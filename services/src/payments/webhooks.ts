// Stripe's webhooks on the global instance (docs/payments.md#webhooks), once the intake recorded them
// (webhook-intake.ts): a checkpointed consumer of the log hands each recorded event here, once; its
// effects and the `processed` mark are one append.
import {
  decideCompleteCheckout,
  decideProcessWebhookEvent,
  decideRecordCheckout,
  decideRefundOutcome,
  decideRefundSettled,
  decideSettleObligation,
  decideSettlementDelivered,
  decideUpdateAccount,
  decidePayoutUpdated,
  paymentAccountStream,
  paymentCheckoutStream,
  paymentObligationStream,
  paymentReceiptStream,
  paymentWebhookStream,
  requireAmount,
  requireLineItems,
  type CheckoutState,
  type ConnectedAccountState,
  type NewEvent,
  type ReceiptState,
  type RecordCheckout,
  type WebhookEventState,
} from '@tributary/domain';
import { createHash } from 'node:crypto';
import { commitEvents } from '../pipeline/execute.js';
import type { PaymentsOperationServices } from './payments-operation.js';
import { processorOf, requestHash } from './payments-of.js';
import { instanceActor, onceAgainOnConflict, readStates } from './support.js';

const str = (v: unknown): string | null => (typeof v === 'string' && v.length > 0 ? v : null);
const rec = (v: unknown): Record<string, unknown> =>
  v !== null && typeof v === 'object' ? (v as Record<string, unknown>) : {};

/** A receipt id derived from the Checkout Session: the same session always names the same receipt. */
export const receiptIdOf = (sessionId: string) =>
  `rc-${createHash('sha256').update(sessionId).digest('hex').slice(0, 32)}`;

/** The checkout a recovered session stands for, as `payment.checkout_session_created` folds it. */
const recoveredState = (r: RecordCheckout): CheckoutState => ({
  exists: true,
  requesterInstanceId: r.requesterInstanceId,
  obligationId: r.obligationId,
  seller: r.seller,
  connectedAccountId: r.connectedAccountId,
  amount: r.amount,
  currency: r.currency,
  requestHash: r.requestHash,
  sessionId: r.sessionId,
  url: r.url,
  receiptId: null,
  delivered: false,
});

/**
 * A paid Checkout Session we never recorded, checked against Stripe (retrieved, not taken from the
 * event): ours only if its metadata names this requester and obligation, the seller's connected account
 * is the one we hold, and its items, currency and URLs give the request digest we sent with it — which
 * is also what the requester's retry will send, so the retry then answers this session. Null otherwise.
 */
async function recoverCheckout(
  services: PaymentsOperationServices,
  o: { sessionId: string; requesterInstanceId: string; obligationId: string; now: string },
): Promise<RecordCheckout | null> {
  const session = await processorOf(services).retrieveCheckoutSession(o.sessionId);
  const m = session?.metadata ?? {};
  if (
    !session ||
    session.paymentStatus !== 'paid' ||
    m['obligationId'] !== o.obligationId ||
    m['requesterInstanceId'] !== o.requesterInstanceId ||
    !m['sellerInstanceId'] ||
    !m['sellerAgentId'] ||
    !m['requestedBy'] ||
    !m['requestHash'] ||
    !session.successUrl ||
    !session.cancelUrl
  )
    return null;
  const seller = { instanceId: m['sellerInstanceId'], agentId: m['sellerAgentId'] };
  const account = await services.payments.read.connectedAccount(seller);
  if (!account) return null;
  let checked: ReturnType<typeof requireLineItems>;
  try {
    checked = requireLineItems(session.lineItems, session.currency);
  } catch {
    return null;
  }
  const { items, amount, currency } = checked;
  const { successUrl, cancelUrl } = session;
  if (
    amount !== session.amountTotal ||
    requestHash({ seller, items, currency, successUrl, cancelUrl }) !== m['requestHash']
  )
    return null;
  return {
    requesterInstanceId: o.requesterInstanceId,
    obligationId: o.obligationId,
    seller,
    connectedAccountId: account.accountId,
    requestedBy: m['requestedBy'],
    lineItems: items,
    amount,
    currency,
    successUrl,
    cancelUrl,
    requestHash: m['requestHash'],
    sessionId: session.sessionId,
    // Stripe drops a completed session's URL; the buyer has paid, so a retry is sent where they landed.
    url: session.url ?? successUrl,
    now: o.now,
  };
}

interface Effect {
  streams: string[];
  decide: (states: Map<string, unknown>) => NewEvent[];
  outcome: string;
}

/** What one Stripe event does to our records (streams to read and the decision), by its type. */
async function effectOf(
  services: PaymentsOperationServices,
  eventId: string,
  payload: string,
  self: { instanceId: string },
): Promise<Effect> {
  const none = (outcome: string): Effect => ({ streams: [], decide: () => [], outcome });
  let parsed: Record<string, unknown>;
  try {
    parsed = rec(JSON.parse(payload));
  } catch {
    return none('malformed');
  }
  const type = String(parsed['type']);
  const object = rec(rec(parsed['data'])['object']);
  const now = services.clock.now().toISOString();
  const { read } = services.payments;
  switch (type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded': {
      if (object['payment_status'] !== 'paid') return none('not_paid');
      const metadata = rec(object['metadata']);
      const requesterInstanceId = str(metadata['requesterInstanceId']);
      const obligationId = str(metadata['obligationId']);
      const sessionId = str(object['id']);
      const paymentIntentId = str(object['payment_intent']) ?? str(rec(object['payment_intent'])['id']);
      if (!requesterInstanceId || !obligationId || !sessionId || !paymentIntentId)
        return none('unknown_checkout');
      const stream = paymentCheckoutStream(requesterInstanceId, obligationId);
      const receiptId = receiptIdOf(sessionId);
      // Never recorded here (a crash between Stripe creating the session and our record, the buyer paying
      // before the retry): recorded now from what Stripe holds, if it is ours and exactly what was asked.
      const recorded = (await readStates(services, [stream])).get(stream) as CheckoutState;
      const recovery = recorded.exists
        ? null
        : await recoverCheckout(services, { sessionId, requesterInstanceId, obligationId, now });
      if (!recorded.exists && !recovery) return none('unknown_checkout');
      // The seller is ours: the obligation is settled in the same append, nothing to deliver.
      const local = requesterInstanceId === self.instanceId;
      const obligation = paymentObligationStream(obligationId);
      return {
        streams: local
          ? [stream, paymentReceiptStream(receiptId), obligation]
          : [stream, paymentReceiptStream(receiptId)],
        outcome: recovery ? 'checkout_recovered' : 'checkout_completed',
        decide: (s) => {
          let checkout = s.get(stream) as CheckoutState;
          const record = recovery && !checkout.exists ? decideRecordCheckout(recovery, checkout) : [];
          if (record.length > 0) checkout = recoveredState(recovery!);
          const completed = [
            ...record,
            ...decideCompleteCheckout(
              { receiptId, webhookEventId: eventId, sessionId, paymentIntentId, now },
              checkout,
            ),
          ];
          if (!local || completed.length === 0) return completed;
          const done = { ...checkout, receiptId };
          return [
            ...completed,
            ...decideSettleObligation(
              {
                obligationId,
                receiptId,
                amount: checkout.amount,
                currency: checkout.currency!,
                sessionId,
                now,
              },
              s.get(obligation) as never,
            ),
            ...decideSettlementDelivered(now, done),
          ];
        },
      };
    }
    case 'account.updated': {
      const accountId = str(object['id']);
      const view = accountId ? await read.connectedAccountById(accountId) : null;
      if (!accountId || !view) return none('unknown_account');
      // Events may come in any order: the account's current state is asked of Stripe, not taken from the event.
      const current = await processorOf(services).retrieveAccount(accountId);
      const stream = paymentAccountStream(view.party.instanceId, view.party.agentId);
      return {
        streams: [stream],
        outcome: 'account_updated',
        decide: (s) => decideUpdateAccount({ ...current, now }, s.get(stream) as ConnectedAccountState),
      };
    }
    case 'refund.created':
    case 'refund.updated':
    case 'refund.failed':
    case 'charge.refund.updated': {
      const refundId = str(object['id']);
      const status = object['status'];
      const receiptId =
        str(rec(object['metadata'])['receiptId']) ??
        (str(object['payment_intent'])
          ? ((await read.receiptByPaymentIntent(String(object['payment_intent'])))?.receiptId ?? null)
          : null);
      if (!refundId || !receiptId) return none('unknown_refund');
      const stream = paymentReceiptStream(receiptId);
      // Stripe made the refund but its answer is not on our log yet (a crash between the two, or this
      // event won the race with the record): the refund is recorded now, as Stripe holds it, rather than
      // this event being lost; the request's own record then finds it recorded and writes nothing.
      const key = str(rec(object['metadata'])['idempotencyKey']);
      const receipt = (await readStates(services, [stream])).get(stream) as ReceiptState;
      const unrecorded =
        key !== null && !receipt.refunds.some((r) => r.refundId === refundId)
          ? receipt.refunds.find(
              (r) => r.idempotencyKey === key && r.refundId === null && r.status === 'requested',
            )
          : undefined;
      if (unrecorded) {
        const current = await processorOf(services).retrieveRefund(refundId);
        if (
          !current ||
          current.metadata['receiptId'] !== receiptId ||
          current.metadata['idempotencyKey'] !== key ||
          current.amount !== unrecorded.amount ||
          current.paymentIntentId !== receipt.paymentIntentId
        )
          return none('unknown_refund');
        return {
          streams: [stream],
          outcome: 'refund_recorded',
          decide: (s) =>
            decideRefundOutcome(
              { receiptId, idempotencyKey: key!, refundId, status: current.status, now },
              s.get(stream) as ReceiptState,
            ),
        };
      }
      if (status !== 'succeeded' && status !== 'failed' && status !== 'canceled')
        return none('refund_pending');
      return {
        streams: [stream],
        outcome: `refund_${status}`,
        decide: (s) =>
          decideRefundSettled({ receiptId, refundId, status, now }, s.get(stream) as ReceiptState),
      };
    }
    case 'charge.dispute.created':
    case 'charge.dispute.updated':
    case 'charge.dispute.closed': {
      const intent = str(object['payment_intent']);
      const receipt = intent ? await read.receiptByPaymentIntent(intent) : null;
      const disputeId = str(object['id']);
      if (!receipt || !disputeId) return none('unknown_dispute');
      const amount = typeof object['amount'] === 'number' ? object['amount'] : receipt.amount;
      const stream = paymentReceiptStream(receipt.receiptId);
      return {
        streams: [stream],
        outcome: 'dispute_updated',
        decide: () => [
          {
            stream,
            type: 'payment.dispute_updated',
            data: {
              receiptId: receipt.receiptId,
              disputeId,
              amount: requireAmount(amount),
              currency: receipt.currency,
              status: String(object['status'] ?? 'unknown').slice(0, 60),
              updatedAt: now,
            },
          },
        ],
      };
    }
    case 'payout.paid':
    case 'payout.failed':
    case 'payout.updated':
    case 'payout.canceled': {
      const account = str(parsed['account']);
      const view = account ? await read.connectedAccountById(account) : null;
      const payoutId = str(object['id']);
      if (
        !view ||
        !payoutId ||
        typeof object['amount'] !== 'number' ||
        typeof object['currency'] !== 'string'
      )
        return none('unknown_payout');
      const stream = paymentAccountStream(view.party.instanceId, view.party.agentId);
      const cmd = {
        payoutId,
        amount: object['amount'],
        currency: object['currency'],
        status: String(object['status'] ?? 'unknown').slice(0, 40),
        now,
      };
      return {
        streams: [stream],
        outcome: 'payout_updated',
        decide: (s) => decidePayoutUpdated(cmd, s.get(stream) as ConnectedAccountState),
      };
    }
    default:
      return none('ignored');
  }
}

/**
 * Processes one recorded webhook event: its effects and its `processed` mark in one append, so a crash
 * either did both or neither, and a second run finds it processed and does nothing.
 */
export async function processWebhookEvent(
  services: PaymentsOperationServices,
  eventId: string,
  payload: string,
): Promise<string> {
  const self = await instanceActor(services);
  const webhook = paymentWebhookStream(eventId);
  const effect = await effectOf(services, eventId, payload, self);
  let outcome = 'already_processed';
  await onceAgainOnConflict(() =>
    commitEvents(
      services,
      [webhook, ...effect.streams],
      (s) => {
        const processed = decideProcessWebhookEvent(
          { eventId, outcome: effect.outcome, now: services.clock.now().toISOString() },
          s.get(webhook) as WebhookEventState,
        );
        if (processed.length === 0) return [];
        outcome = effect.outcome;
        return [...effect.decide(s), ...processed];
      },
      self.agentId,
    ),
  );
  return outcome;
}

/**
 * Delivers completed checkouts' settlements to their sellers' instances (signed requests); each one
 * acknowledged is marked delivered. A seller's instance that is down is tried again on the next pass.
 */
export async function deliverSettlements(
  services: PaymentsOperationServices,
  options: {
    limit: number;
    skip?: (key: string) => boolean;
    failed?: (key: string, e: unknown) => void;
    delivered?: (key: string) => void;
  },
): Promise<number> {
  const payments = services.payments;
  if (!payments.settlements) return 0;
  const self = await instanceActor(services);
  const federation = services.federation;
  let done = 0;
  for (const p of await payments.read.pendingSettlements(options.limit)) {
    const key = `${p.requesterInstanceId}/${p.obligationId}`;
    if (options.skip?.(key)) continue;
    try {
      const peer =
        p.requesterInstanceId === self.instanceId ? null : await federation?.read.peer(p.requesterInstanceId);
      if (peer) {
        await payments.settlements.settle(peer.baseUrl, {
          obligationId: p.obligationId,
          receiptId: p.receiptId,
          amount: p.amount,
          currency: p.currency,
          sessionId: p.sessionId,
        });
        // The seller's instance has the settlement and we have no record of its delivery yet.
        payments.failpoint?.('settlement.after-delivery');
      } else if (p.requesterInstanceId !== self.instanceId) continue;
      const stream = paymentCheckoutStream(p.requesterInstanceId, p.obligationId);
      const local = p.requesterInstanceId === self.instanceId;
      const obligation = paymentObligationStream(p.obligationId);
      await onceAgainOnConflict(() =>
        commitEvents(
          services,
          local ? [stream, obligation] : [stream],
          (s) => {
            const now = services.clock.now().toISOString();
            const settle = local
              ? decideSettleObligation(
                  {
                    obligationId: p.obligationId,
                    receiptId: p.receiptId,
                    amount: p.amount,
                    currency: p.currency,
                    sessionId: p.sessionId,
                    now,
                  },
                  s.get(obligation) as never,
                )
              : [];
            return [...settle, ...decideSettlementDelivered(now, s.get(stream) as CheckoutState)];
          },
          self.agentId,
        ),
      );
      done++;
      options.delivered?.(key);
    } catch (e) {
      options.failed?.(key, e);
    }
  }
  return done;
}
