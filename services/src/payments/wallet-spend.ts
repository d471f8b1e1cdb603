// The wallet's payout tool (docs/payments.md#wallet-tools): an operator of this instance asks the payment
// platform to pay a payee of theirs for a job — in place on the global instance
// (svc.payments.request_payout), or from a sovereign instance by its signed request to the global
// instance, which sees the instance as the requester. Operators only: the platform's balance is not for
// anyone to pay themselves from. `svc.wallet.spend` only, granted on its own; proposed by the assistant,
// it runs only on the operator's confirmation (docs/assistant.md#spending). Starting a checkout is
// svc.payments.start_checkout.
import { DomainError, isGlobalInstance, requireMoney } from '@tributary/domain';
import { z } from 'zod';
import { execute } from '../pipeline/execute.js';
import { definePaymentsOperation } from './payments-operation.js';
import { targetAgentId } from '../shared/schemas.js';
import { platformUrlOf } from './support.js';
import { requireIdempotencyKey } from './payments-of.js';
import { payoutOutput, requestPayout } from './request-payout.js';

export const startWalletPayout = definePaymentsOperation({
  name: 'svc.wallet.start_payout',
  title: 'Pay a payee out',
  description:
    'An operator of this instance asks the payment platform (the global instance) to pay a payee of this ' +
    'instance (payeeAgentId) for a job into their connected account: amount (minor units), currency, an idempotency key (8–64 of A-Za-z0-9_-; the same key never pays twice) and a ' +
    'reference. Answers paid, needs_onboarding, insufficient_funds, awaiting_confirmation (an operator of the ' +
    'global instance confirms payouts above its threshold), refused or pending.',
  kind: 'command',
  scopes: ['svc.wallet.spend'],
  enabledFor: ['session', 'token'],
  controllerOnly: true,
  input: z.strictObject({
    targetAgentId,
    payeeAgentId: z.string().min(1).max(255).describe('the agent of this instance to pay'),
    amount: z.number(),
    currency: z.string().max(10),
    idempotencyKey: z.string().max(64),
    reference: z.string().max(200).default(''),
  }),
  output: payoutOutput,
  async run(ctx, input) {
    const payments = ctx.services.payments;
    const { amount, currency } = requireMoney(input.amount, input.currency);
    const idempotencyKey = requireIdempotencyKey(input.idempotencyKey);
    if (isGlobalInstance(ctx.instance.role))
      return (
        await execute(
          ctx.services,
          requestPayout,
          { payeeAgentId: input.payeeAgentId, amount, currency, idempotencyKey, reference: input.reference },
          ctx.principal,
          // This instance's own part of the call, whose surface checks the outer call passed: the route's
          // operation is reached at its own endpoint only, never as a tool.
          'system',
        )
      ).result;
    const platformUrl = await platformUrlOf(ctx.services);
    if (!payments.platform)
      throw new DomainError('payments.disabled', 'unavailable', 'no client for the payment platform here');
    const answer = await payments.platform.payout(platformUrl, {
      payeeAgentId: input.payeeAgentId,
      amount,
      currency,
      idempotencyKey,
      reference: input.reference,
    });
    return { ...answer, idempotencyKey };
  },
});
