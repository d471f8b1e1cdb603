// POST /api/federation/connect/onboarding (global only, docs/payments.md#connected-accounts): the party's
// connected account, created once (country required, never defaulted), and a fresh onboarding link.
import {
  decideCreateAccount,
  paymentAccountStream,
  requireCountry,
  type ConnectedAccountState,
  type PaymentParty,
} from '@tributary/domain';
import { z } from 'zod';
import { definePaymentsOperation, type PaymentsOperationContext } from './payments-operation.js';
import { processorKey, processorOf, requireIdempotencyKey, requireUrlOnInstance } from './payments-of.js';
import { partyOf, readStates, requesterOf } from './support.js';

/**
 * The party's connected account (created once, keyed by the party at Stripe) and a fresh onboarding link
 * whose URLs are on `baseUrl`, the instance the party belongs to. On the global instance only.
 */
export async function onboardParty(
  ctx: PaymentsOperationContext,
  party: PaymentParty,
  baseUrl: string,
  input: { country?: unknown; refreshUrl: unknown; returnUrl: unknown; requestId?: unknown },
): Promise<{ accountId: string; url: string; expiresAt: number; created: boolean }> {
  const processor = processorOf(ctx.services);
  const country = requireCountry(input.country);
  const refreshUrl = requireUrlOnInstance(input.refreshUrl, baseUrl, 'refreshUrl');
  const returnUrl = requireUrlOnInstance(input.returnUrl, baseUrl, 'returnUrl');
  const requestId =
    input.requestId === undefined
      ? ctx.services.ids.entityId()
      : requireIdempotencyKey(input.requestId, 'requestId');
  const stream = paymentAccountStream(party.instanceId, party.agentId);
  const state = (await readStates(ctx.services, [stream])).get(stream) as ConnectedAccountState;
  let accountId = state.accountId;
  const created = !state.exists;
  if (!accountId) {
    // Keyed by the party alone: a retry after a crash finds the account Stripe already made.
    ({ accountId } = await processor.createConnectedAccount(
      { country, metadata: { instanceId: party.instanceId, agentId: party.agentId } },
      processorKey('account', party.instanceId, party.agentId),
    ));
    ctx.services.payments?.failpoint?.('account.after-processor');
    const id = accountId;
    await ctx.commit(
      [stream],
      (s) =>
        decideCreateAccount(
          { party, accountId: id, country, now: ctx.now.toISOString() },
          s.get(stream) as ConnectedAccountState,
        ),
      { retries: 3 },
    );
  }
  const link = await processor.createAccountLink(
    { accountId, refreshUrl, returnUrl },
    processorKey('account-link', accountId, requestId),
  );
  return { accountId, url: link.url, expiresAt: link.expiresAt, created };
}

export const onboardSeller = definePaymentsOperation({
  name: 'svc.payments.onboard_seller',
  title: 'Create a connected account and an onboarding link',
  description:
    'On the global instance only: creates the seller’s connected account if it has none (country required) and ' +
    'answers a Stripe onboarding link.',
  kind: 'command',
  scopes: ['svc.wallet.spend'],
  enabledFor: [],
  ownEndpoint: true,
  input: z.strictObject({
    agentId: z.string().min(1).max(255).optional(),
    // Typed, no tighter: a value that breaks a rule is refused with its own payments.* code.
    country: z.string().optional().describe('ISO 3166-1 alpha-2, e.g. DE; needed to create the account'),
    refreshUrl: z.string().describe('a URL on the requesting instance'),
    returnUrl: z.string().describe('a URL on the requesting instance'),
    /** Distinguishes one link request from another (a link expires; a new key mints a new one). */
    requestId: z.string().optional(),
  }),
  output: z.object({ accountId: z.string(), url: z.string(), expiresAt: z.number(), created: z.boolean() }),
  async run(ctx, input) {
    const requester = await requesterOf(ctx, 'create a connected account or mint an onboarding link');
    return onboardParty(ctx, partyOf(requester, input.agentId, ctx), requester.baseUrl, input);
  },
});
