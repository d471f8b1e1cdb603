// A receipt on the global instance and its refunds (docs/payments.md#refunds). A refund request is
// recorded before Stripe is called, reserving its amount, so two requests never refund more than was
// paid and a retry after a crash reuses the same Idempotency-Key.
import { streamAggregate } from '../shared/aggregate.js';
import type { NewEvent } from '../shared/envelope.js';
import { invalid, notFound, unprocessable } from '../shared/errors.js';
import type { StoredEventLike } from '../shared/stored-event-like.js';
import type { PaymentParty } from './events.js';
import { requireAmount, type PaymentCurrency } from './money.js';
import { paymentReceiptStream } from './streams.js';

export interface RefundEntry {
  idempotencyKey: string;
  amount: number;
  requestHash: string;
  refundId: string | null;
  status: 'requested' | 'pending' | 'succeeded' | 'failed' | 'canceled';
}

export interface ReceiptState {
  exists: boolean;
  receiptId: string | null;
  requesterInstanceId: string | null;
  seller: PaymentParty | null;
  paymentIntentId: string | null;
  amount: number;
  currency: PaymentCurrency | null;
  refunds: RefundEntry[];
}

const initialReceipt = (): ReceiptState => ({
  exists: false,
  receiptId: null,
  requesterInstanceId: null,
  seller: null,
  paymentIntentId: null,
  amount: 0,
  currency: null,
  refunds: [],
});

const finalStatus = (status: string): RefundEntry['status'] =>
  status === 'succeeded' || status === 'failed' || status === 'canceled' ? status : 'pending';

function evolveReceipt(s: ReceiptState, e: StoredEventLike): ReceiptState {
  const d = e.data as Record<string, unknown>;
  switch (e.type) {
    case 'payment.receipt_settled':
      return {
        ...s,
        exists: true,
        receiptId: d['receiptId'] as string,
        requesterInstanceId: d['requesterInstanceId'] as string,
        seller: d['seller'] as PaymentParty,
        paymentIntentId: d['paymentIntentId'] as string,
        amount: d['amount'] as number,
        currency: d['currency'] as PaymentCurrency,
      };
    case 'payment.refund_requested':
      return {
        ...s,
        refunds: [
          ...s.refunds,
          {
            idempotencyKey: d['idempotencyKey'] as string,
            amount: d['amount'] as number,
            requestHash: d['requestHash'] as string,
            refundId: null,
            status: 'requested',
          },
        ],
      };
    case 'payment.refund_created':
      return {
        ...s,
        refunds: s.refunds.map((r) =>
          r.idempotencyKey === d['idempotencyKey']
            ? { ...r, refundId: d['refundId'] as string, status: finalStatus(d['status'] as string) }
            : r,
        ),
      };
    case 'payment.refund_settled': {
      const match = (r: RefundEntry) =>
        (d['refundId'] !== null && r.refundId === d['refundId']) ||
        (d['idempotencyKey'] !== null && r.idempotencyKey === d['idempotencyKey']);
      return {
        ...s,
        refunds: s.refunds.map((r) =>
          match(r)
            ? {
                ...r,
                refundId: (d['refundId'] as string | null) ?? r.refundId,
                status: finalStatus(d['status'] as string),
              }
            : r,
        ),
      };
    }
    default:
      return s;
  }
}

export const receiptStreams = streamAggregate<ReceiptState>('payment-receipt-', {
  initial: initialReceipt,
  evolve: evolveReceipt,
});

/** What is left to refund: the payment less every refund not failed or canceled. */
export const refundableRemaining = (s: ReceiptState): number =>
  s.amount -
  s.refunds.filter((r) => r.status !== 'failed' && r.status !== 'canceled').reduce((n, r) => n + r.amount, 0);

/**
 * Who may refund a receipt: the instance that requested its checkout (a sovereign, by its signed request),
 * the receipt's own seller here (a person of the global instance, for their own sale), or an operator of
 * the global instance by the operators' own operation. Anyone else is told the receipt does not exist.
 */
export type RefundAuthority =
  { kind: 'requester'; instanceId: string } | { kind: 'seller'; party: PaymentParty } | { kind: 'operator' };

export interface RequestRefund {
  receiptId: string;
  /** The instance asking (recorded with the request). */
  requesterInstanceId: string;
  authority: RefundAuthority;
  idempotencyKey: string;
  /** Null: the whole of what is left. */
  amount: number | null;
  reason: string | null;
  requestedBy: string;
  requestHash: string;
  now: string;
}

/** Whether `authority` may refund the receipt `s` (an absent receipt: nobody). */
export function mayRefund(authority: RefundAuthority, s: ReceiptState): boolean {
  if (!s.exists) return false;
  switch (authority.kind) {
    case 'requester':
      return s.requesterInstanceId === authority.instanceId;
    case 'seller':
      return (
        s.requesterInstanceId === authority.party.instanceId &&
        s.seller !== null &&
        s.seller.instanceId === authority.party.instanceId &&
        s.seller.agentId === authority.party.agentId
      );
    case 'operator':
      return true;
  }
}

export type RefundDecision =
  { kind: 'new'; events: NewEvent[]; amount: number } | { kind: 'repeat'; entry: RefundEntry };

/**
 * A refund request: a receipt the asker may not refund is not found, as one that does not exist is; a repeat of the same key and request is
 * `repeat` (the caller answers `already_requested`), the same key with another request is refused; the
 * amount is at most what is left.
 */
export function decideRequestRefund(cmd: RequestRefund, s: ReceiptState): RefundDecision {
  if (!mayRefund(cmd.authority, s))
    throw notFound('payments.receipt_not_found', 'no such receipt of yours', { receiptId: cmd.receiptId });
  const existing = s.refunds.find((r) => r.idempotencyKey === cmd.idempotencyKey);
  if (existing) {
    if (existing.requestHash !== cmd.requestHash)
      throw unprocessable(
        'payments.idempotency_key_reused',
        'that idempotency key was used for another refund',
      );
    return { kind: 'repeat', entry: existing };
  }
  const remaining = refundableRemaining(s);
  const amount = cmd.amount === null ? remaining : requireAmount(cmd.amount);
  if (amount <= 0 || amount > remaining)
    throw invalid('payments.refund_exceeds_remaining', 'that is more than is left to refund', { remaining });
  return {
    kind: 'new',
    amount,
    events: [
      {
        stream: paymentReceiptStream(cmd.receiptId),
        type: 'payment.refund_requested',
        data: {
          receiptId: cmd.receiptId,
          idempotencyKey: cmd.idempotencyKey,
          requestedBy: cmd.requestedBy,
          requesterInstanceId: cmd.requesterInstanceId,
          amount,
          currency: s.currency,
          reason: cmd.reason,
          requestHash: cmd.requestHash,
          requestedAt: cmd.now,
        },
      },
    ],
  };
}

/** Stripe's answer to a recorded request: its refund, or its refusal (which releases the amount). */
export function decideRefundOutcome(
  cmd: { receiptId: string; idempotencyKey: string; refundId: string | null; status: string; now: string },
  s: ReceiptState,
): NewEvent[] {
  const entry = s.refunds.find((r) => r.idempotencyKey === cmd.idempotencyKey);
  if (!entry || entry.refundId !== null || entry.status !== 'requested') return [];
  const stream = paymentReceiptStream(cmd.receiptId);
  if (cmd.refundId === null)
    return [
      {
        stream,
        type: 'payment.refund_settled',
        data: {
          receiptId: cmd.receiptId,
          idempotencyKey: cmd.idempotencyKey,
          refundId: null,
          amount: entry.amount,
          currency: s.currency,
          status: 'failed',
          settledAt: cmd.now,
        },
      },
    ];
  return [
    {
      stream,
      type: 'payment.refund_created',
      data: {
        receiptId: cmd.receiptId,
        idempotencyKey: cmd.idempotencyKey,
        refundId: cmd.refundId,
        status: cmd.status,
        createdAt: cmd.now,
      },
    },
  ];
}

/** A refund's final state from Stripe's webhook; a state already known writes nothing. */
export function decideRefundSettled(
  cmd: { receiptId: string; refundId: string; status: 'succeeded' | 'failed' | 'canceled'; now: string },
  s: ReceiptState,
): NewEvent[] {
  if (!s.exists) return [];
  const entry = s.refunds.find((r) => r.refundId === cmd.refundId);
  if (!entry || entry.status === cmd.status) return [];
  return [
    {
      stream: paymentReceiptStream(cmd.receiptId),
      type: 'payment.refund_settled',
      data: {
        receiptId: cmd.receiptId,
        idempotencyKey: entry.idempotencyKey,
        refundId: cmd.refundId,
        amount: entry.amount,
        currency: s.currency,
        status: cmd.status,
        settledAt: cmd.now,
      },
    },
  ];
}
