// A payout on the global instance (docs/payments.md#payouts): recorded before the transfer is made, so
// the transfer runs with the request's Idempotency-Key and a retry after a crash makes no second one.
import { streamAggregate } from '../shared/aggregate.js';
import type { NewEvent } from '../shared/envelope.js';
import { notFound, unprocessable } from '../shared/errors.js';
import type { StoredEventLike } from '../shared/stored-event-like.js';
import type { PaymentParty } from './events.js';
import type { PaymentCurrency } from './money.js';
import { paymentPayoutStream } from './streams.js';

/** What a payout request is answered (spec: paid, needs_onboarding, insufficient_funds, awaiting_confirmation, disabled). */
export const PAYOUT_STATUSES = [
  'paid',
  'needs_onboarding',
  'insufficient_funds',
  'awaiting_confirmation',
  'disabled',
  'refused',
  'pending',
] as const;
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];

export interface PayoutState {
  exists: boolean;
  requesterInstanceId: string | null;
  idempotencyKey: string | null;
  payee: PaymentParty | null;
  amount: number;
  currency: PaymentCurrency | null;
  reference: string | null;
  requestHash: string | null;
  needsConfirmation: boolean;
  confirmed: boolean;
  transferId: string | null;
  failed: 'insufficient_funds' | 'needs_onboarding' | 'refused' | null;
}

const initialPayout = (): PayoutState => ({
  exists: false,
  requesterInstanceId: null,
  idempotencyKey: null,
  payee: null,
  amount: 0,
  currency: null,
  reference: null,
  requestHash: null,
  needsConfirmation: false,
  confirmed: false,
  transferId: null,
  failed: null,
});

function evolvePayout(s: PayoutState, e: StoredEventLike): PayoutState {
  const d = e.data as Record<string, unknown>;
  switch (e.type) {
    case 'payment.payout_requested':
      return {
        ...s,
        exists: true,
        requesterInstanceId: d['requesterInstanceId'] as string,
        idempotencyKey: d['idempotencyKey'] as string,
        payee: d['payee'] as PaymentParty,
        amount: d['amount'] as number,
        currency: d['currency'] as PaymentCurrency,
        reference: d['reference'] as string,
        requestHash: d['requestHash'] as string,
        needsConfirmation: d['needsConfirmation'] as boolean,
      };
    case 'payment.payout_confirmed':
      return { ...s, confirmed: true };
    case 'payment.transfer_created':
      return { ...s, transferId: d['transferId'] as string };
    case 'payment.payout_failed':
      return { ...s, failed: d['reason'] as PayoutState['failed'] };
    default:
      return s;
  }
}

export const payoutStreams = streamAggregate<PayoutState>('payment-payout-', {
  initial: initialPayout,
  evolve: evolvePayout,
});

/** Where a recorded payout stands. */
export function payoutStatusOf(s: PayoutState): PayoutStatus {
  if (s.transferId !== null) return 'paid';
  if (s.failed !== null) return s.failed;
  if (s.needsConfirmation && !s.confirmed) return 'awaiting_confirmation';
  return 'pending';
}

/** Is the transfer still to be made (recorded, confirmed if it must be, not yet made nor failed)? */
export const payoutReadyToTransfer = (s: PayoutState): boolean =>
  s.exists && s.transferId === null && s.failed === null && (!s.needsConfirmation || s.confirmed);

export interface RequestPayout {
  requesterInstanceId: string;
  idempotencyKey: string;
  payee: PaymentParty;
  requestedBy: string;
  amount: number;
  currency: PaymentCurrency;
  reference: string;
  requestHash: string;
  needsConfirmation: boolean;
  now: string;
}

/** Records the request; a repeat writes nothing, the same key with another request is refused. */
export function decideRequestPayout(cmd: RequestPayout, s: PayoutState): NewEvent[] {
  if (s.exists) {
    if (s.requestHash !== cmd.requestHash)
      throw unprocessable(
        'payments.idempotency_key_reused',
        'that idempotency key was used for another payout',
      );
    return [];
  }
  const { now, ...data } = cmd;
  return [
    {
      stream: paymentPayoutStream(cmd.requesterInstanceId, cmd.idempotencyKey),
      type: 'payment.payout_requested',
      data: { ...data, requestedAt: now },
    },
  ];
}

/** An operator's confirmation of a payout awaiting it. */
export function decideConfirmPayout(cmd: { confirmedBy: string; now: string }, s: PayoutState): NewEvent[] {
  if (!s.exists || !s.needsConfirmation)
    throw notFound('payments.payout_not_found', 'no such payout awaits confirmation');
  if (s.confirmed) return [];
  return [
    {
      stream: paymentPayoutStream(s.requesterInstanceId as string, s.idempotencyKey as string),
      type: 'payment.payout_confirmed',
      data: {
        requesterInstanceId: s.requesterInstanceId,
        idempotencyKey: s.idempotencyKey,
        confirmedBy: cmd.confirmedBy,
        confirmedAt: cmd.now,
      },
    },
  ];
}

/** The transfer's outcome, once. */
export function decidePayoutOutcome(
  cmd:
    | { kind: 'transferred'; transferId: string; connectedAccountId: string; now: string }
    | {
        kind: 'failed';
        reason: 'insufficient_funds' | 'needs_onboarding' | 'refused';
        processorCode: string | null;
        now: string;
      },
  s: PayoutState,
): NewEvent[] {
  if (!s.exists || s.transferId !== null || s.failed !== null) return [];
  const stream = paymentPayoutStream(s.requesterInstanceId as string, s.idempotencyKey as string);
  const base = { requesterInstanceId: s.requesterInstanceId, idempotencyKey: s.idempotencyKey };
  if (cmd.kind === 'transferred')
    return [
      {
        stream,
        type: 'payment.transfer_created',
        data: {
          ...base,
          transferId: cmd.transferId,
          connectedAccountId: cmd.connectedAccountId,
          amount: s.amount,
          currency: s.currency,
          createdAt: cmd.now,
        },
      },
    ];
  return [
    {
      stream,
      type: 'payment.payout_failed',
      data: { ...base, reason: cmd.reason, processorCode: cmd.processorCode, failedAt: cmd.now },
    },
  ];
}
