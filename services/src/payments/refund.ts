// POST /api/federation/stripe/refund (global only, docs/payments.md#refunds): full or partial, by receipt.
// The amount and the payment are re-derived from our records, never taken from the request; the request
// is recorded first (reserving its amount), then Stripe is asked with a key derived from it.
import {
  decideRefundOutcome,
  decideRequestRefund,
  isDomainError,
  paymentReceiptStream,
  refundableRemaining,
  type ReceiptState,
} from '@tributary/domain';
import { z } from 'zod';
import { commitEvents } from '../pipeline/execute.js';
import { defineOperation } from '../pipeline/operation.js';
import { processorKey, processorOf, requestHash, requireIdempotencyKey } from './payments-of.js';
import { onceAgainOnConflict, readStates, requesterOf } from './support.js';

export const refundReceipt = defineOperation({
  name: 'svc.payments.refund',
  title: 'Refund a receipt',
  description:
    'On the global instance only: refunds all or part of what is left of a receipt (amount in minor units; ' +
    'omitted, the rest). A repeat of the same idempotency key answers already_requested.',
  kind: 'command',
  scopes: ['svc.wallet.spend'],
  enabledFor: [],
  ownEndpoint: true,
  input: z.strictObject({
    receiptId: z.string().min(1).max(255),
    amount: z.unknown().optional(),
    idempotencyKey: z.unknown(),
    reason: z.string().max(500).optional(),
  }),
  output: z.object({
    status: z.enum(['requested', 'already_requested']),
    receiptId: z.string(),
    refundId: z.string().nullable(),
    refundStatus: z.string(),
    amount: z.number(),
    remaining: z.number(),
  }),
  async run(ctx, input) {
    const requester = await requesterOf(ctx, 'refund');
    const processor = processorOf(ctx.services);
    const idempotencyKey = requireIdempotencyKey(input.idempotencyKey);
    const amount = input.amount === undefined || input.amount === null ? null : (input.amount as number);
    const stream = paymentReceiptStream(input.receiptId);
    const cmd = {
      receiptId: input.receiptId,
      requesterInstanceId: requester.instanceId,
      // Only the receipt's own requester may refund it (the global instance's people: their own sales).
      globalInstanceId: '',
      idempotencyKey,
      amount,
      reason: input.reason ?? null,
      requestedBy: requester.agentId,
      requestHash: requestHash({ receiptId: input.receiptId, amount, reason: input.reason ?? null }),
      now: ctx.now.toISOString(),
    };
    // The check first (codes, repeat) on the current state; the record decides again under the append.
    const before = decideRequestRefund(
      cmd,
      (await readStates(ctx.services, [stream])).get(stream) as ReceiptState,
    );
    let repeat = before.kind === 'repeat';
    if (!repeat)
      await onceAgainOnConflict(() =>
        ctx.commit([stream], (s) => {
          const d = decideRequestRefund(cmd, s.get(stream) as ReceiptState);
          repeat = d.kind === 'repeat';
          return d.kind === 'new' ? d.events : [];
        }),
      );
    let receipt = (await readStates(ctx.services, [stream])).get(stream) as ReceiptState;
    let entry = receipt.refunds.find((r) => r.idempotencyKey === idempotencyKey)!;
    // Stripe not yet asked (first time, or a crash came between the record and the call): ask, same key.
    if (entry.status === 'requested' && entry.refundId === null) {
      let outcome: { refundId: string | null; status: string };
      try {
        outcome = await processor.createRefund(
          {
            paymentIntentId: receipt.paymentIntentId!,
            amount: entry.amount,
            metadata: { receiptId: input.receiptId, idempotencyKey },
          },
          processorKey('refund', input.receiptId, idempotencyKey),
        );
        ctx.services.payments?.failpoint?.('refund.after-processor');
      } catch (e) {
        if (!isDomainError(e) || e.code !== 'payments.processor_refused') throw e;
        outcome = { refundId: null, status: 'failed' };
      }
      await onceAgainOnConflict(() =>
        commitEvents(
          ctx.services,
          [stream],
          (s) =>
            decideRefundOutcome(
              {
                receiptId: input.receiptId,
                idempotencyKey,
                ...outcome,
                now: ctx.services.clock.now().toISOString(),
              },
              s.get(stream) as ReceiptState,
            ),
          ctx.actor.agentId,
        ),
      );
      receipt = (await readStates(ctx.services, [stream])).get(stream) as ReceiptState;
      entry = receipt.refunds.find((r) => r.idempotencyKey === idempotencyKey)!;
    }
    return {
      status: repeat ? ('already_requested' as const) : ('requested' as const),
      receiptId: input.receiptId,
      refundId: entry.refundId,
      refundStatus: entry.status,
      amount: entry.amount,
      remaining: refundableRemaining(receipt),
    };
  },
});
