// Refunds on the global instance (docs/payments.md#refunds): full or partial, by receipt. At
// POST /api/federation/stripe/refund the receipt's requesting instance (signed) or its seller (a person
// here) asks; svc.payments.operator_refund is the operators' own path. The amount and the payment are
// re-derived from our records, never taken from the request; the request is recorded first (reserving its
// amount), then Stripe is asked with a key derived from it.
import {
  decideRefundOutcome,
  requireGlobalInstance,
  type RefundAuthority,
  decideRequestRefund,
  isDomainError,
  paymentReceiptStream,
  refundableRemaining,
  type ReceiptState,
} from '@tributary/domain';
import { z } from 'zod';
import { commitEvents } from '../pipeline/execute.js';
import { definePaymentsOperation, type PaymentsOperationContext } from './payments-operation.js';
import { targetAgentId } from '../shared/schemas.js';
import { processorKey, processorOf, requestHash, requireIdempotencyKey } from './payments-of.js';
import { onceAgainOnConflict, readStates, requesterOf } from './support.js';

const refundInput = {
  receiptId: z.string().min(1).max(255),
  // Typed, no tighter: a bad amount or key of the right type is refused with its own payments.* code.
  amount: z.number().nullable().optional().describe('minor units; omitted or null refunds what remains'),
  idempotencyKey: z.string().describe('8–64 characters of A-Za-z0-9_-'),
  reason: z.string().max(500).optional(),
};

const refundOutput = z.object({
  status: z.enum(['requested', 'already_requested']),
  receiptId: z.string(),
  refundId: z.string().nullable(),
  refundStatus: z.string(),
  amount: z.number(),
  remaining: z.number(),
});

interface RefundRequest {
  receiptId: string;
  amount?: number | null | undefined;
  idempotencyKey: string;
  reason?: string | undefined;
}

/** Records the refund (if `authority` may make it) and asks Stripe once; a repeat answers the first. */
async function refund(
  ctx: PaymentsOperationContext,
  input: RefundRequest,
  requester: { instanceId: string; agentId: string },
  authority: RefundAuthority,
): Promise<z.infer<typeof refundOutput>> {
  const processor = processorOf(ctx.services);
  const idempotencyKey = requireIdempotencyKey(input.idempotencyKey);
  const amount = input.amount === undefined || input.amount === null ? null : input.amount;
  const stream = paymentReceiptStream(input.receiptId);
  const cmd = {
    receiptId: input.receiptId,
    requesterInstanceId: requester.instanceId,
    authority,
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
    await ctx.commit(
      [stream],
      (s) => {
        const d = decideRequestRefund(cmd, s.get(stream) as ReceiptState);
        repeat = d.kind === 'repeat';
        return d.kind === 'new' ? d.events : [];
      },
      { retries: 3 },
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
}

export const refundReceipt = definePaymentsOperation({
  name: 'svc.payments.refund',
  title: 'Refund a receipt',
  description:
    'On the global instance only: refunds all or part of what is left of a receipt (amount in minor units; ' +
    'omitted, the rest), for the instance that requested its checkout or the receipt’s own seller. A repeat ' +
    'of the same idempotency key answers already_requested.',
  kind: 'command',
  scopes: ['svc.wallet.spend'],
  enabledFor: [],
  ownEndpoint: true,
  input: z.strictObject({ targetAgentId, ...refundInput }),
  output: refundOutput,
  async run(ctx, input) {
    const requester = await requesterOf(ctx, 'refund');
    // A peer refunds the receipts of its own checkouts; a person here only their own sales (an operator
    // too: the operators' refund is svc.payments.operator_refund, never this route).
    const authority: RefundAuthority = requester.remote
      ? { kind: 'requester', instanceId: requester.instanceId }
      : { kind: 'seller', party: { instanceId: ctx.instance.instanceId, agentId: ctx.actor.agentId } };
    return refund(ctx, input, requester, authority);
  },
});

export const operatorRefund = definePaymentsOperation({
  name: 'svc.payments.operator_refund',
  title: 'Refund any receipt, as an operator of the payment platform',
  description:
    'On the global instance only, for its operators: refunds all or part of what is left of any receipt ' +
    '(amount in minor units; omitted, the rest). A repeat of the same idempotency key answers already_requested.',
  kind: 'command',
  scopes: ['svc.admin', 'svc.wallet.spend'],
  enabledFor: ['session', 'token'],
  controllerOnly: true,
  input: z.strictObject(refundInput),
  output: refundOutput,
  async run(ctx, input) {
    requireGlobalInstance(ctx.instance.role, 'refund');
    return refund(
      ctx,
      input,
      { instanceId: ctx.instance.instanceId, agentId: ctx.actor.agentId },
      { kind: 'operator' },
    );
  },
});
