// The global instance's side of a checkout (docs/payments.md#exactly-once): one Checkout Session per
// requester and obligation id, completed once (the receipt written in the same append), its settlement
// delivered to the seller's instance until acknowledged.
import { streamAggregate } from '../shared/aggregate.js';
import type { NewEvent } from '../shared/envelope.js';
import { unprocessable } from '../shared/errors.js';
import type { StoredEventLike } from '../shared/stored-event-like.js';
import type { LineItem, PaymentParty } from './events.js';
import type { PaymentCurrency } from './money.js';
import { paymentCheckoutStream, paymentReceiptStream } from './streams.js';

export interface CheckoutState {
  exists: boolean;
  requesterInstanceId: string | null;
  obligationId: string | null;
  seller: PaymentParty | null;
  connectedAccountId: string | null;
  amount: number;
  currency: PaymentCurrency | null;
  requestHash: string | null;
  sessionId: string | null;
  url: string | null;
  receiptId: string | null;
  delivered: boolean;
}

const initialCheckout = (): CheckoutState => ({
  exists: false,
  requesterInstanceId: null,
  obligationId: null,
  seller: null,
  connectedAccountId: null,
  amount: 0,
  currency: null,
  requestHash: null,
  sessionId: null,
  url: null,
  receiptId: null,
  delivered: false,
});

function evolveCheckout(s: CheckoutState, e: StoredEventLike): CheckoutState {
  const d = e.data as Record<string, unknown>;
  switch (e.type) {
    case 'payment.checkout_session_created':
      return {
        ...s,
        exists: true,
        requesterInstanceId: d['requesterInstanceId'] as string,
        obligationId: d['obligationId'] as string,
        seller: d['seller'] as PaymentParty,
        connectedAccountId: d['connectedAccountId'] as string,
        amount: d['amount'] as number,
        currency: d['currency'] as PaymentCurrency,
        requestHash: d['requestHash'] as string,
        sessionId: d['sessionId'] as string,
        url: d['url'] as string,
      };
    case 'payment.checkout_completed':
      return { ...s, receiptId: d['receiptId'] as string };
    case 'payment.settlement_delivered':
      return { ...s, delivered: true };
    default:
      return s;
  }
}

export const checkoutStreams = streamAggregate<CheckoutState>('payment-checkout-', {
  initial: initialCheckout,
  evolve: evolveCheckout,
});

/**
 * Before Stripe is called: a checkout already created for this obligation answers again (same request) or
 * is refused (another request under the same obligation id). Returns the existing state when it repeats.
 */
export function checkRepeatCheckout(requestHash: string, s: CheckoutState): CheckoutState | null {
  if (!s.exists) return null;
  if (s.requestHash !== requestHash)
    throw unprocessable(
      'payments.idempotency_key_reused',
      'that obligation id was used for another checkout',
      {
        obligationId: s.obligationId,
      },
    );
  return s;
}

export interface RecordCheckout {
  requesterInstanceId: string;
  obligationId: string;
  seller: PaymentParty;
  connectedAccountId: string;
  requestedBy: string;
  lineItems: LineItem[];
  amount: number;
  currency: PaymentCurrency;
  successUrl: string;
  cancelUrl: string;
  requestHash: string;
  sessionId: string;
  url: string;
  now: string;
}

export function decideRecordCheckout(cmd: RecordCheckout, s: CheckoutState): NewEvent[] {
  if (checkRepeatCheckout(cmd.requestHash, s)) return [];
  const { now, ...data } = cmd;
  return [
    {
      stream: paymentCheckoutStream(cmd.requesterInstanceId, cmd.obligationId),
      type: 'payment.checkout_session_created',
      data: { ...data, createdAt: now },
    },
  ];
}

export interface CompleteCheckout {
  receiptId: string;
  webhookEventId: string;
  sessionId: string;
  paymentIntentId: string;
  now: string;
}

/**
 * Checkout completion, once: the checkout marked completed and the receipt written together. A second
 * completion (a redelivered or repeated event) writes nothing; a session that is not this checkout's too.
 */
export function decideCompleteCheckout(cmd: CompleteCheckout, s: CheckoutState): NewEvent[] {
  if (!s.exists || s.receiptId !== null || s.sessionId !== cmd.sessionId) return [];
  const requesterInstanceId = s.requesterInstanceId as string;
  const obligationId = s.obligationId as string;
  return [
    {
      stream: paymentCheckoutStream(requesterInstanceId, obligationId),
      type: 'payment.checkout_completed',
      data: {
        obligationId,
        requesterInstanceId,
        receiptId: cmd.receiptId,
        webhookEventId: cmd.webhookEventId,
      },
    },
    {
      stream: paymentReceiptStream(cmd.receiptId),
      type: 'payment.receipt_settled',
      data: {
        receiptId: cmd.receiptId,
        requesterInstanceId,
        obligationId,
        seller: s.seller,
        connectedAccountId: s.connectedAccountId,
        sessionId: cmd.sessionId,
        paymentIntentId: cmd.paymentIntentId,
        amount: s.amount,
        currency: s.currency,
        settledAt: cmd.now,
      },
    },
  ];
}

/** The seller's instance acknowledged (or the seller is ours and was settled in place). Once. */
export function decideSettlementDelivered(now: string, s: CheckoutState): NewEvent[] {
  if (!s.exists || s.receiptId === null || s.delivered) return [];
  return [
    {
      stream: paymentCheckoutStream(s.requesterInstanceId as string, s.obligationId as string),
      type: 'payment.settlement_delivered',
      data: {
        obligationId: s.obligationId,
        requesterInstanceId: s.requesterInstanceId,
        receiptId: s.receiptId,
        deliveredAt: now,
      },
    },
  ];
}
