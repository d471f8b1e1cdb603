// The seller's side of a settlement (docs/payments.md#exactly-once): the global instance's signed request
// settles a recorded obligation once. An obligation never recorded here is refused; a redelivery of the
// same settlement writes nothing and answers the same.
import {
  decideSettleObligation,
  forbidden,
  isGlobalInstance,
  paymentObligationStream,
  unauthenticated,
  type ObligationState,
} from '@tributary/domain';
import { z } from 'zod';
import { definePaymentsAreaOperation } from './payments-operation.js';
import { peerOf } from './support.js';

export const settlementInput = z.strictObject({
  obligationId: z.string().min(1).max(64),
  receiptId: z.string().min(1).max(255),
  amount: z.number(),
  currency: z.string().max(8),
  sessionId: z.string().min(1).max(255),
});

export const settleObligation = definePaymentsAreaOperation({
  name: 'svc.payments.settle_obligation',
  title: 'Settle a recorded obligation',
  description:
    'On the seller’s instance, from the global instance only (signed): the obligation was paid. Once per obligation.',
  kind: 'command',
  scopes: [],
  enabledFor: [],
  // POST /api/federation/stripe/settlement, peer-signed by the global instance only.
  ownEndpoint: true,
  input: settlementInput,
  output: z.object({ obligationId: z.string(), receiptId: z.string(), settled: z.boolean() }),
  async run(ctx, input) {
    if (ctx.principal.kind !== 'peer')
      throw unauthenticated(
        'federation.signature_required',
        'settlements come signed from the global instance',
      );
    const peer = await peerOf(ctx.services, ctx.principal.peerId);
    if (!peer || !isGlobalInstance(peer.role))
      throw forbidden('federation.global_only', 'only the global instance may settle an obligation', {
        action: 'settle an obligation',
      });
    const stream = paymentObligationStream(input.obligationId);
    const { events } = await ctx.commit(
      [stream],
      (s) =>
        decideSettleObligation({ ...input, now: ctx.now.toISOString() }, s.get(stream) as ObligationState),
      { retries: 3 },
    );
    return { obligationId: input.obligationId, receiptId: input.receiptId, settled: events.length > 0 };
  },
});
