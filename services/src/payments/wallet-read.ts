// The wallet's reads (docs/payments.md#wallet-tools): a person's receipts, payouts, balance and connected
// account, as this instance knows them. `svc.wallet.read` only: nothing here moves money, and no read
// scope ever lets a caller spend (`svc.wallet.spend` is granted on its own, domain/src/shared/scopes.ts).
// On the global instance the person's receipts are the payments taken for them (their connected account
// is the charge's destination); on a seller's instance, the obligations recorded there and whether the
// global instance settled them. Each list is newest first, paged by `before` (the last item's time).
import { isGlobalInstance, PAYMENT_CURRENCIES } from '@tributary/domain';
import { z } from 'zod';
import { definePaymentsOperation } from './payments-operation.js';
import { targetAgentId } from '../shared/schemas.js';
import { paymentsEnabled } from './payments-of.js';

/** Items of one page, at most (and by default). */
export const WALLET_PAGE_MAX = 100;
export const WALLET_PAGE_DEFAULT = 50;

const page = {
  limit: z.number().int().min(1).max(WALLET_PAGE_MAX).optional(),
  before: z
    .string()
    .datetime({ offset: true })
    .optional()
    .describe('the time of the last item of the previous page (its settledAt, recordedAt or requestedAt)'),
};

const currency = z.enum(PAYMENT_CURRENCIES);
const party = z.object({ instanceId: z.string(), agentId: z.string() });

export const receiptOutput = z.object({
  receiptId: z.string(),
  requesterInstanceId: z.string(),
  obligationId: z.string(),
  seller: party,
  connectedAccountId: z.string(),
  sessionId: z.string(),
  paymentIntentId: z.string(),
  amount: z.number().int(),
  currency,
  refunded: z.number().int(),
  settledAt: z.string(),
});

export const obligationOutput = z.object({
  obligationId: z.string(),
  sellerAgentId: z.string(),
  amount: z.number().int(),
  currency,
  description: z.string().nullable(),
  sessionId: z.string().nullable(),
  checkoutUrl: z.string().nullable(),
  state: z.enum(['recorded', 'settled']),
  receiptId: z.string().nullable(),
  recordedAt: z.string(),
  settledAt: z.string().nullable(),
});

export const payoutOutput = z.object({
  requesterInstanceId: z.string(),
  idempotencyKey: z.string(),
  payee: party,
  amount: z.number().int(),
  currency,
  reference: z.string(),
  status: z.string(),
  transferId: z.string().nullable(),
  requestedAt: z.string(),
  updatedAt: z.string(),
});

export const balanceOutput = z.object({
  currency,
  received: z.number().int(),
  refunded: z.number().int(),
  paidOut: z.number().int(),
});

export const connectedAccountOutput = z.object({
  accountId: z.string(),
  country: z.string(),
  detailsSubmitted: z.boolean(),
  chargesEnabled: z.boolean(),
  payoutsEnabled: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

const pageOf = (limit: number | undefined) => limit ?? WALLET_PAGE_DEFAULT;
/** Where the next page starts: the last item's time, when the page was full. */
const nextBefore = (items: readonly unknown[], limit: number, at: (i: never) => string): string | null =>
  items.length === limit ? at(items[items.length - 1] as never) : null;

const strip = <T extends { sellerLocalAgentId?: unknown }>(r: T) => {
  const { sellerLocalAgentId: _local, ...rest } = r;
  return rest;
};

export const listWalletReceipts = definePaymentsOperation({
  name: 'svc.wallet.list_receipts',
  title: 'List your receipts',
  description:
    'Payments taken for you, newest first: on the global instance the receipts of checkouts paid to your ' +
    'connected account (with what was refunded), on this instance the obligations you recorded for buyers ' +
    'and whether they were settled. Amounts are integers in minor units.',
  kind: 'query',
  scopes: ['svc.wallet.read'],
  enabledFor: ['session', 'token'],
  input: z.strictObject({ targetAgentId, ...page }),
  output: z.object({
    receipts: z.array(receiptOutput),
    obligations: z.array(obligationOutput),
    nextBefore: z.object({ receipts: z.string().nullable(), obligations: z.string().nullable() }),
  }),
  async run(ctx, input) {
    const { read } = ctx.services.payments;
    const limit = pageOf(input.limit);
    const p = { limit, before: input.before };
    const [receipts, obligations] = await Promise.all([
      read.receiptsOfAgent(ctx.actor.agentId, p),
      read.obligationsOfAgent(ctx.actor.agentId, p),
    ]);
    return {
      receipts: receipts.map(strip),
      obligations,
      nextBefore: {
        receipts: nextBefore(receipts, limit, (r: (typeof receipts)[number]) => r.settledAt),
        obligations: nextBefore(obligations, limit, (o: (typeof obligations)[number]) => o.recordedAt),
      },
    };
  },
});

export const listWalletPayouts = definePaymentsOperation({
  name: 'svc.wallet.list_payouts',
  title: 'List your payouts',
  description:
    'Payouts to you that the global instance was asked to make, newest first, with their status ' +
    '(paid, awaiting_confirmation, needs_onboarding, insufficient_funds, refused, pending) and transfer.',
  kind: 'query',
  scopes: ['svc.wallet.read'],
  enabledFor: ['session', 'token'],
  input: z.strictObject({ targetAgentId, ...page }),
  output: z.object({ payouts: z.array(payoutOutput), nextBefore: z.string().nullable() }),
  async run(ctx, input) {
    const { read } = ctx.services.payments;
    const limit = pageOf(input.limit);
    const payouts = await read.payoutsOfAgent(ctx.actor.agentId, { limit, before: input.before });
    return {
      payouts: payouts.map(({ payeeLocalAgentId: _local, ...rest }) => rest),
      nextBefore: nextBefore(payouts, limit, (p: (typeof payouts)[number]) => p.requestedAt),
    };
  },
});

export const readWalletBalance = definePaymentsOperation({
  name: 'svc.wallet.read_balance',
  title: 'Read your wallet balance',
  description:
    'Per currency, what you received, what was refunded of it and what was paid out to you, in minor ' +
    'units, as this instance recorded it.',
  kind: 'query',
  scopes: ['svc.wallet.read'],
  enabledFor: ['session', 'token'],
  input: z.strictObject({ targetAgentId }),
  output: z.object({ balances: z.array(balanceOutput) }),
  async run(ctx) {
    const { read } = ctx.services.payments;
    return { balances: await read.balanceOfAgent(ctx.actor.agentId) };
  },
});

export const readWalletAccount = definePaymentsOperation({
  name: 'svc.wallet.read_account',
  title: 'Read your connected payment account',
  description:
    'Whether payments are on here, whether this is the global (payment platform) instance, and the state ' +
    'of your connected Stripe account there, if you have one: details submitted, charges and payouts enabled.',
  kind: 'query',
  scopes: ['svc.wallet.read'],
  enabledFor: ['session', 'token'],
  input: z.strictObject({ targetAgentId }),
  output: z.object({
    paymentsEnabled: z.boolean(),
    platform: z.boolean(),
    account: connectedAccountOutput.nullable(),
  }),
  async run(ctx) {
    const { read } = ctx.services.payments;
    const account = await read.connectedAccountOfAgent(ctx.actor.agentId);
    return {
      paymentsEnabled: paymentsEnabled(ctx.services),
      platform: isGlobalInstance(ctx.instance.role),
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
