// The seller's side (docs/payments.md#exactly-once): an obligation is recorded before the checkout is
// asked for, and settled once, by the global instance's signed word, for exactly what was recorded.
import { streamAggregate } from '../shared/aggregate.js';
import type { NewEvent } from '../shared/envelope.js';
import { conflict, notFound, unprocessable } from '../shared/errors.js';
import type { StoredEventLike } from '../shared/stored-event-like.js';
import type { LineItem } from './events.js';
import type { PaymentCurrency } from './money.js';
import { paymentObligationStream } from './streams.js';

export interface ObligationState {
  exists: boolean;
  obligationId: string | null;
  sellerAgentId: string | null;
  amount: number;
  currency: PaymentCurrency | null;
  requestHash: string | null;
  sessionId: string | null;
  url: string | null;
  settled: { receiptId: string; settledAt: string } | null;
}

const initialObligation = (): ObligationState => ({
  exists: false,
  obligationId: null,
  sellerAgentId: null,
  amount: 0,
  currency: null,
  requestHash: null,
  sessionId: null,
  url: null,
  settled: null,
});

function evolveObligation(s: ObligationState, e: StoredEventLike): ObligationState {
  const d = e.data as Record<string, unknown>;
  switch (e.type) {
    case 'payment.obligation_recorded':
      return {
        ...s,
        exists: true,
        obligationId: d['obligationId'] as string,
        sellerAgentId: d['sellerAgentId'] as string,
        amount: d['amount'] as number,
        currency: d['currency'] as PaymentCurrency,
        requestHash: d['requestHash'] as string,
      };
    case 'payment.obligation_checkout_opened':
      return { ...s, sessionId: d['sessionId'] as string, url: d['url'] as string };
    case 'payment.obligation_settled':
      return { ...s, settled: { receiptId: d['receiptId'] as string, settledAt: d['settledAt'] as string } };
    default:
      return s;
  }
}

export const obligationStreams = streamAggregate<ObligationState>('payment-obligation-', {
  initial: initialObligation,
  evolve: evolveObligation,
});

export interface RecordObligation {
  obligationId: string;
  /** The seller's own key, when `obligationId` is derived from it. */
  key?: string;
  sellerAgentId: string;
  lineItems: LineItem[];
  amount: number;
  currency: PaymentCurrency;
  description: string | null;
  requestHash: string;
  now: string;
}

/** Records the obligation; the same request again writes nothing, another under the same id is refused. */
export function decideRecordObligation(cmd: RecordObligation, s: ObligationState): NewEvent[] {
  if (s.exists) {
    if (s.requestHash !== cmd.requestHash || s.sellerAgentId !== cmd.sellerAgentId)
      throw unprocessable(
        'payments.idempotency_key_reused',
        'that obligation id was used for another request',
        {
          obligationId: cmd.obligationId,
        },
      );
    return [];
  }
  const { now, ...data } = cmd;
  return [
    {
      stream: paymentObligationStream(cmd.obligationId),
      type: 'payment.obligation_recorded',
      data: { ...data, recordedAt: now },
    },
  ];
}

/** Notes the checkout the global instance opened (once per session id). */
export function decideOpenObligationCheckout(
  cmd: { obligationId: string; sessionId: string; url: string },
  s: ObligationState,
): NewEvent[] {
  if (!s.exists) throw notFound('payments.obligation_unknown', 'no such obligation here');
  if (s.sessionId === cmd.sessionId) return [];
  return [
    {
      stream: paymentObligationStream(cmd.obligationId),
      type: 'payment.obligation_checkout_opened',
      data: cmd,
    },
  ];
}

export interface SettleObligation {
  obligationId: string;
  receiptId: string;
  amount: number;
  currency: string;
  sessionId: string;
  now: string;
}

/**
 * Settles a recorded obligation once. Unknown: refused (`payments.obligation_unknown`). Already settled by
 * the same receipt: nothing written (a redelivery). Another amount, currency or receipt: refused.
 */
export function decideSettleObligation(cmd: SettleObligation, s: ObligationState): NewEvent[] {
  if (!s.exists)
    throw notFound('payments.obligation_unknown', 'no obligation with that id was recorded here', {
      obligationId: cmd.obligationId,
    });
  if (s.amount !== cmd.amount || s.currency !== cmd.currency)
    throw conflict('payments.obligation_mismatch', 'the settlement does not match the obligation', {
      obligationId: cmd.obligationId,
    });
  if (s.settled) {
    if (s.settled.receiptId === cmd.receiptId) return [];
    throw conflict('payments.obligation_mismatch', 'the obligation was settled by another receipt', {
      obligationId: cmd.obligationId,
    });
  }
  const { now, ...data } = cmd;
  return [
    {
      stream: paymentObligationStream(cmd.obligationId),
      type: 'payment.obligation_settled',
      data: { ...data, settledAt: now },
    },
  ];
}
