// POST /api/federation/connect/account (global only, docs/payments.md#connected-accounts): the state of a
// party's connected account as the global instance holds it (it follows Stripe's account.updated), for a
// sovereign's signed request about one of its agents, or a session of the global instance's own people.
import { z } from 'zod';
import { definePaymentsOperation } from './payments-operation.js';
import { processorOf } from './payments-of.js';
import { partyOf, requesterOf } from './support.js';
import { connectedAccountOutput } from './wallet-read.js';

export const readConnectedAccount = definePaymentsOperation({
  name: 'svc.payments.read_connected_account',
  title: 'Read a seller’s connected account on the payment platform',
  description:
    'On the global instance only: the state of the party’s connected Stripe account (details submitted, charges ' +
    'and payouts enabled), or null when it has none.',
  kind: 'query',
  scopes: ['svc.wallet.read'],
  enabledFor: [],
  ownEndpoint: true,
  input: z.strictObject({ agentId: z.string().min(1).max(255).optional() }),
  output: z.object({ account: connectedAccountOutput.nullable() }),
  async run(ctx, input) {
    const requester = await requesterOf(ctx, 'read a connected account');
    // Payments off here: say so, rather than answer "no account" for an instance that holds none.
    processorOf(ctx.services);
    const account = await ctx.services.payments.read.connectedAccount(partyOf(requester, input.agentId, ctx));
    return {
      account: account
        ? {
            accountId: account.accountId,
            country: account.country,
            detailsSubmitted: account.detailsSubmitted,
            chargesEnabled: account.chargesEnabled,
            payoutsEnabled: account.payoutsEnabled,
            createdAt: account.createdAt,
            updatedAt: account.updatedAt,
          }
        : null,
    };
  },
});
