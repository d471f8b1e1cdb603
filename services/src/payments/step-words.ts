// This area's operations as plan steps read (services/src/shared/step-words.ts).
import { q, type DescribeStep } from '../shared/step-words.js';

/** "12.50 EUR" from an amount in minor units. */
const money = (amount: unknown, currency: unknown) =>
  typeof amount === 'number'
    ? `${(amount / 100).toFixed(2)} ${typeof currency === 'string' ? currency.toUpperCase() : ''}`.trim()
    : 'an amount';

export const paymentsStepWords: Record<string, DescribeStep> = {
  'svc.payments.start_checkout': (a) => `Start a checkout${a.description ? ` for ${q(a.description)}` : ''}`,
  'svc.payments.confirm_payout': () => 'Confirm a payout above the threshold',
  'svc.payments.operator_refund': (a) => `Refund ${money(a.amount, undefined)} of a receipt`,
  'svc.payments.reconcile': () => 'Check the payments against the payment platform',
  'svc.wallet.list_receipts': () => 'List your receipts',
  'svc.wallet.list_payouts': () => 'List your payouts',
  'svc.wallet.read_balance': () => 'Read your wallet balance',
  'svc.wallet.read_account': () => 'Read your connected payment account',
  'svc.wallet.read_platform_account': () => 'Read your account on the payment platform',
  'svc.wallet.start_onboarding': () => 'Set up your payment account',
  'svc.wallet.start_payout': (a, n) => `Pay ${money(a.amount, a.currency)} out to ${n.agent(a.payeeAgentId)}`,
};
