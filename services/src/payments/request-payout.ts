// POST /api/federation/connect/payout (docs/payments.md#payouts): a sovereign (or an operator of the global
// instance) asks the platform to pay a payee for a job. The request is recorded before the transfer, and
// the transfer carries a key derived from the request, so a retry after a crash never pays twice.
import {
  decideConfirmPayout,
  decidePayoutOutcome,
  decideRequestPayout,
  isDomainError,
  paymentAccountStream,
  paymentPayoutStream,
  payoutReadyToTransfer,
  payoutStatusOf,
  PAYOUT_STATUSES,
  requireMoney,
  type ConnectedAccountState,
  type PayoutState,
  type PayoutStatus,
  invalid,
} from '@tributary/domain';
import { z } from 'zod';
import { commitEvents } from '../pipeline/execute.js';
import { definePaymentsOperation } from './payments-operation.js';
import type { PaymentsOperationServices } from './payments-operation.js';
import { processorKey, processorOf, requestHash, requireIdempotencyKey } from './payments-of.js';
import { onceAgainOnConflict, partyOf, readStates, requesterOf, requireOperatorPayee } from './support.js';

export const payoutOutput = z.object({
  status: z.enum(PAYOUT_STATUSES),
  transferId: z.string().nullable(),
  idempotencyKey: z.string(),
});

/** Makes the transfer of a recorded, ready payout, and records its outcome. Safe to repeat. */
export async function transferPayout(
  services: PaymentsOperationServices,
  actorId: string,
  stream: string,
  now: () => Date,
): Promise<{ status: PayoutStatus; transferId: string | null }> {
  const processor = processorOf(services);
  const states = await readStates(services, [stream]);
  const payout = states.get(stream) as PayoutState;
  if (!payoutReadyToTransfer(payout))
    return { status: payoutStatusOf(payout), transferId: payout.transferId };
  const payee = payout.payee!;
  const accountStream = paymentAccountStream(payee.instanceId, payee.agentId);
  const account = (await readStates(services, [accountStream])).get(accountStream) as ConnectedAccountState;
  if (!account.exists || !account.accountId)
    throw invalid('payments.no_connected_account', 'the payee has no connected account');
  // Not yet able to receive: nothing is written, so the same key pays once onboarding is done.
  if (!account.payoutsEnabled) return { status: 'needs_onboarding', transferId: null };
  let outcome: Parameters<typeof decidePayoutOutcome>[0];
  try {
    const { transferId } = await processor.createTransfer(
      {
        amount: payout.amount,
        currency: payout.currency!,
        destination: account.accountId,
        transferGroup: `payout-${payout.requesterInstanceId}-${payout.idempotencyKey}`,
        metadata: {
          requesterInstanceId: payout.requesterInstanceId!,
          idempotencyKey: payout.idempotencyKey!,
          reference: payout.reference ?? '',
        },
      },
      processorKey('transfer', payout.requesterInstanceId!, payout.idempotencyKey!),
    );
    services.payments?.failpoint?.('payout.after-processor');
    outcome = {
      kind: 'transferred',
      transferId,
      connectedAccountId: account.accountId,
      now: now().toISOString(),
    };
  } catch (e) {
    if (!isDomainError(e) || e.code !== 'payments.processor_refused') throw e;
    const processorCode =
      typeof e.details?.['processorCode'] === 'string' ? e.details['processorCode'] : null;
    outcome = {
      kind: 'failed',
      reason: processorCode === 'balance_insufficient' ? 'insufficient_funds' : 'refused',
      processorCode,
      now: now().toISOString(),
    };
  }
  await onceAgainOnConflict(() =>
    commitEvents(
      services,
      [stream],
      (s) => decidePayoutOutcome(outcome, s.get(stream) as PayoutState),
      actorId,
    ),
  );
  const after = (await readStates(services, [stream])).get(stream) as PayoutState;
  return { status: payoutStatusOf(after), transferId: after.transferId };
}

export const requestPayout = definePaymentsOperation({
  name: 'svc.payments.request_payout',
  title: 'Pay a payee through the payment platform',
  description:
    'On the global instance: an operator (or a sovereign peer, by its signed request) pays a payee’s connected ' +
    'account for a job (payeeAgentId, amount, currency, idempotency key, reference). Answers paid, needs_onboarding, insufficient_funds, awaiting_confirmation (above ' +
    'PAYMENTS_PAYOUT_CONFIRM_ABOVE an operator confirms) or disabled.',
  kind: 'command',
  scopes: ['svc.wallet.spend'],
  enabledFor: [],
  ownEndpoint: true,
  input: z.strictObject({
    payeeAgentId: z.string().min(1).max(255).optional(),
    // Typed, no tighter: a value that breaks a rule is refused with its own payments.* code.
    amount: z.number().describe('minor units, a positive integer'),
    currency: z.string().describe('a currency the platform takes, lower case (e.g. eur)'),
    idempotencyKey: z.string().describe('8–64 characters of A-Za-z0-9_-'),
    reference: z.string().max(200).default(''),
  }),
  output: payoutOutput,
  async run(ctx, input) {
    const requester = await requesterOf(ctx, 'pay out');
    // A payout is the requesting instance's decision: here only its operators make it, naming the payee.
    if (!requester.remote) requireOperatorPayee(ctx, input.payeeAgentId);
    processorOf(ctx.services);
    const { payoutConfirmAbove } = ctx.services.payments;
    const { amount, currency } = requireMoney(input.amount, input.currency);
    const idempotencyKey = requireIdempotencyKey(input.idempotencyKey);
    const payee = partyOf(requester, input.payeeAgentId, ctx, true);
    const hash = requestHash({ payee, amount, currency, reference: input.reference });
    const stream = paymentPayoutStream(requester.instanceId, idempotencyKey);
    const accountStream = paymentAccountStream(payee.instanceId, payee.agentId);
    const states = await readStates(ctx.services, [stream, accountStream]);
    const account = states.get(accountStream) as ConnectedAccountState;
    if (!(states.get(stream) as PayoutState).exists && !account.exists)
      throw invalid(
        'payments.no_connected_account',
        'the payee has no connected account; onboard them first',
      );
    await ctx.commit(
      [stream],
      (s) =>
        decideRequestPayout(
          {
            requesterInstanceId: requester.instanceId,
            idempotencyKey,
            payee,
            requestedBy: requester.agentId,
            amount,
            currency,
            reference: input.reference,
            requestHash: hash,
            needsConfirmation: amount > payoutConfirmAbove,
            now: ctx.now.toISOString(),
          },
          s.get(stream) as PayoutState,
        ),
      { retries: 3 },
    );
    const answer = await transferPayout(ctx.services, ctx.actor.agentId, stream, () =>
      ctx.services.clock.now(),
    );
    return { ...answer, idempotencyKey };
  },
});

export const confirmPayout = definePaymentsOperation({
  name: 'svc.payments.confirm_payout',
  title: 'Confirm a payout above the threshold',
  description:
    'An operator of the global instance confirms a payout that waits for confirmation; the transfer is then made.',
  kind: 'command',
  scopes: ['svc.admin', 'svc.wallet.spend'],
  // A tool for sessions and tokens alike (only the personal data export is session-only): a token needs
  // both scopes and an operator's account, and the assistant never runs it unconfirmed.
  enabledFor: ['session', 'token'],
  controllerOnly: true,
  input: z.strictObject({
    requesterInstanceId: z.string().min(1).max(255),
    idempotencyKey: z.string().min(1).max(64),
  }),
  output: payoutOutput,
  async run(ctx, input) {
    processorOf(ctx.services);
    const stream = paymentPayoutStream(input.requesterInstanceId, input.idempotencyKey);
    await ctx.commit(
      [stream],
      (s) =>
        decideConfirmPayout(
          { confirmedBy: ctx.actor.agentId, now: ctx.now.toISOString() },
          s.get(stream) as PayoutState,
        ),
      { retries: 3 },
    );
    const answer = await transferPayout(ctx.services, ctx.actor.agentId, stream, () =>
      ctx.services.clock.now(),
    );
    return { ...answer, idempotencyKey: input.idempotencyKey };
  },
});
