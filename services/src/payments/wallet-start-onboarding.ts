// The seller's way to the payment platform (docs/payments.md#connected-accounts): on any instance, a
// person asks for their connected account and a Stripe onboarding link. On a sovereign instance the
// request goes to the global instance over the signed peer channel (the account is the global's, held for
// this instance's agent); on the global instance it runs in place. `svc.wallet.spend`: the account is
// where this person's money will be paid, so no read scope sets it up, and the assistant only proposes it.
import { DomainError, isGlobalInstance, requireCountry } from '@tributary/domain';
import { z } from 'zod';
import { definePaymentsOperation } from './payments-operation.js';
import { targetAgentId } from '../shared/schemas.js';
import { onboardParty } from './onboard-seller.js';
import { platformUrlOf } from './support.js';
import { requireIdempotencyKey, requireUrlOnInstance } from './payments-of.js';

export const onboardingOutput = z.object({
  accountId: z.string(),
  url: z.string(),
  expiresAt: z.number(),
  created: z.boolean(),
});

export const startWalletOnboarding = definePaymentsOperation({
  name: 'svc.wallet.start_onboarding',
  title: 'Set up your payment account',
  description:
    'Creates your connected Stripe account on the payment platform (the global instance) if you have none, and ' +
    'answers a fresh onboarding link to finish it at Stripe. country: ISO 3166-1 alpha-2 (e.g. DE), required. ' +
    'returnUrl and refreshUrl (where Stripe sends you back; on this instance) default to its home page.',
  kind: 'command',
  scopes: ['svc.wallet.spend'],
  enabledFor: ['session', 'token'],
  input: z.strictObject({
    targetAgentId,
    country: z.string().max(10).optional().describe('ISO 3166-1 alpha-2, e.g. DE; never defaulted'),
    returnUrl: z.string().max(2048).optional(),
    refreshUrl: z.string().max(2048).optional(),
    requestId: z
      .string()
      .max(64)
      .optional()
      .describe('8–64 of A-Za-z0-9_-: the same id answers the same link; a new one mints a new link'),
  }),
  output: onboardingOutput,
  async run(ctx, input) {
    const payments = ctx.services.payments;
    const home = `${ctx.instance.baseUrl.replace(/\/+$/, '')}/`;
    // Checked here first: bad input is refused before anything is asked of the platform.
    const country = requireCountry(input.country);
    const returnUrl = requireUrlOnInstance(input.returnUrl ?? home, ctx.instance.baseUrl, 'returnUrl');
    const refreshUrl = requireUrlOnInstance(input.refreshUrl ?? home, ctx.instance.baseUrl, 'refreshUrl');
    const requestId =
      input.requestId === undefined ? undefined : requireIdempotencyKey(input.requestId, 'requestId');
    const request = { country, returnUrl, refreshUrl, ...(requestId !== undefined && { requestId }) };
    if (isGlobalInstance(ctx.instance.role))
      return onboardParty(
        ctx,
        { instanceId: ctx.instance.instanceId, agentId: ctx.actor.agentId },
        ctx.instance.baseUrl,
        request,
      );
    const platformUrl = await platformUrlOf(ctx.services);
    if (!payments.platform)
      throw new DomainError('payments.disabled', 'unavailable', 'no client for the payment platform here');
    // Unreachable: federation.peer_unreachable; payments off there: its payments.disabled.
    return payments.platform.onboarding(platformUrl, { agentId: ctx.actor.agentId, ...request });
  },
});
