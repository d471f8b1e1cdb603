// A seller's connected account as the payment platform holds it (docs/payments.md#connected-accounts): on a
// sovereign instance, asked of the global instance over the signed peer channel (the account and its
// state live there, following Stripe's webhooks); on the global instance, read in place.
import { DomainError, isGlobalInstance } from '@tributary/domain';
import { z } from 'zod';
import { definePaymentsOperation } from './payments-operation.js';
import { targetAgentId } from '../shared/schemas.js';
import { platformUrlOf } from './support.js';
import { processorOf } from './payments-of.js';
import { connectedAccountOutput } from './wallet-read.js';

export const readWalletPlatformAccount = definePaymentsOperation({
  name: 'svc.wallet.read_platform_account',
  title: 'Read your payment account on the payment platform',
  description:
    'Asks the payment platform (the global instance) for the state of your connected Stripe account: details ' +
    'submitted, charges and payouts enabled; null when you have none yet (svc.wallet.start_onboarding makes it).',
  kind: 'query',
  scopes: ['svc.wallet.read'],
  enabledFor: ['session', 'token'],
  input: z.strictObject({ targetAgentId }),
  output: z.object({ platform: z.string(), account: connectedAccountOutput.nullable() }),
  async run(ctx) {
    const payments = ctx.services.payments;
    if (isGlobalInstance(ctx.instance.role)) {
      processorOf(ctx.services);
      const a = await payments.read.connectedAccount({
        instanceId: ctx.instance.instanceId,
        agentId: ctx.actor.agentId,
      });
      return {
        platform: ctx.instance.baseUrl,
        account: a && {
          accountId: a.accountId,
          country: a.country,
          detailsSubmitted: a.detailsSubmitted,
          chargesEnabled: a.chargesEnabled,
          payoutsEnabled: a.payoutsEnabled,
          createdAt: a.createdAt,
          updatedAt: a.updatedAt,
        },
      };
    }
    const platformUrl = await platformUrlOf(ctx.services);
    if (!payments.platform)
      throw new DomainError('payments.disabled', 'unavailable', 'no client for the payment platform here');
    const { account } = await payments.platform.account(platformUrl, {
      agentId: ctx.actor.agentId,
    });
    return { platform: platformUrl, account };
  },
});
