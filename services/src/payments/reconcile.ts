// Reconciliation (docs/payments.md#reconciliation): recent Stripe objects compared with what our log
// recorded of them, on the global instance. Webhooks can be lost, delayed past their retries or refused;
// this finds what they left out. Each Stripe object we made carries our ids in its metadata (the
// checkout's obligation and requester, the refund's receipt and key, the transfer's requester and key),
// which name the stream holding our record, so the comparison reads the log itself, not a read model.
// It reports; it writes nothing and repairs nothing.
import {
  fold,
  paymentCheckoutStream,
  paymentPayoutStream,
  paymentReceiptStream,
  type CheckoutState,
  type PayoutState,
  type ReceiptState,
} from '@tributary/domain';
import { z } from 'zod';
import { definePaymentsOperation } from './payments-operation.js';
import type { PaymentsOperationServices } from './payments-operation.js';
import { processorOf } from './payments-of.js';

/** Objects of each kind read from Stripe per run (Stripe's page size ceiling). */
export const RECONCILE_LIST_LIMIT = 100;
export const RECONCILE_DEFAULT_HOURS = 24;
export const RECONCILE_MAX_HOURS = 24 * 30;

export const RECONCILE_DIFFERENCES = [
  'checkout.unknown',
  'checkout.amount_differs',
  'checkout.paid_not_recorded',
  'checkout.recorded_not_paid',
  'refund.unknown',
  'refund.not_recorded',
  'refund.amount_differs',
  'refund.status_differs',
  'transfer.unknown',
  'transfer.not_recorded',
  'transfer.amount_differs',
] as const;
export type ReconcileDifferenceCode = (typeof RECONCILE_DIFFERENCES)[number];

export interface ReconcileDifference {
  difference: ReconcileDifferenceCode;
  /** Stripe's id of the object (cs_…, re_…, tr_…). */
  objectId: string;
  /** Our record's id, when one was found: obligation, receipt or payout key. */
  recordId: string | null;
  stripe: Record<string, unknown>;
  ours: Record<string, unknown> | null;
}

export interface ReconcileReport {
  ranAt: string;
  since: string;
  checked: { checkoutSessions: number; refunds: number; transfers: number };
  /** A kind whose list was full: older objects of the window were not compared. */
  truncated: ('checkout_sessions' | 'refunds' | 'transfers')[];
  differences: ReconcileDifference[];
}

type StripeObject = Record<string, unknown>;
const s = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
const n = (v: unknown): number | null => (typeof v === 'number' ? v : null);
const meta = (o: StripeObject, key: string): string | null =>
  s((o['metadata'] as Record<string, unknown> | undefined)?.[key]);

async function stateOf<T>(services: PaymentsOperationServices, stream: string): Promise<T> {
  return fold<T>(stream, await services.store.readStream(stream));
}

async function checkSession(
  services: PaymentsOperationServices,
  o: StripeObject,
): Promise<ReconcileDifference | null> {
  const id = s(o['id']) ?? '';
  const stripe = {
    status: o['status'],
    paymentStatus: o['payment_status'],
    amount: o['amount_total'],
    currency: o['currency'],
  };
  const obligationId = meta(o, 'obligationId');
  const requester = meta(o, 'requesterInstanceId');
  const unknown = (): ReconcileDifference => ({
    difference: 'checkout.unknown',
    objectId: id,
    recordId: obligationId,
    stripe,
    ours: null,
  });
  if (!obligationId || !requester) return unknown();
  const state = await stateOf<CheckoutState>(services, paymentCheckoutStream(requester, obligationId));
  if (!state.exists || state.sessionId !== id) return unknown();
  const ours = {
    amount: state.amount,
    currency: state.currency,
    receiptId: state.receiptId,
    delivered: state.delivered,
  };
  const base = { objectId: id, recordId: obligationId, stripe, ours };
  if (n(o['amount_total']) !== state.amount || s(o['currency']) !== state.currency)
    return { difference: 'checkout.amount_differs', ...base };
  const paid = o['payment_status'] === 'paid' || o['payment_status'] === 'no_payment_required';
  if (paid && !state.receiptId) return { difference: 'checkout.paid_not_recorded', ...base };
  if (!paid && state.receiptId) return { difference: 'checkout.recorded_not_paid', ...base };
  return null;
}

const FINAL = ['succeeded', 'failed', 'canceled'];

async function checkRefund(
  services: PaymentsOperationServices,
  o: StripeObject,
): Promise<ReconcileDifference | null> {
  const id = s(o['id']) ?? '';
  const stripe = {
    status: o['status'],
    amount: o['amount'],
    currency: o['currency'],
    paymentIntent: o['payment_intent'],
  };
  const receiptId = meta(o, 'receiptId');
  const key = meta(o, 'idempotencyKey');
  const unknown = (): ReconcileDifference => ({
    difference: 'refund.unknown',
    objectId: id,
    recordId: receiptId,
    stripe,
    ours: null,
  });
  if (!receiptId || !key) return unknown();
  const receipt = await stateOf<ReceiptState>(services, paymentReceiptStream(receiptId));
  const entry = receipt.refunds.find((r) => r.idempotencyKey === key);
  if (!receipt.exists || !entry) return unknown();
  const ours = {
    amount: entry.amount,
    currency: receipt.currency,
    status: entry.status,
    refundId: entry.refundId,
  };
  const base = { objectId: id, recordId: receiptId, stripe, ours };
  if (entry.refundId !== id) return { difference: 'refund.not_recorded', ...base };
  if (n(o['amount']) !== entry.amount || s(o['currency']) !== receipt.currency)
    return { difference: 'refund.amount_differs', ...base };
  const theirs = s(o['status']);
  if (theirs && FINAL.includes(theirs) && FINAL.includes(entry.status) && theirs !== entry.status)
    return { difference: 'refund.status_differs', ...base };
  return null;
}

async function checkTransfer(
  services: PaymentsOperationServices,
  o: StripeObject,
): Promise<ReconcileDifference | null> {
  // A destination charge's own transfer belongs to its checkout, compared there.
  if (s(o['source_transaction'])) return null;
  const id = s(o['id']) ?? '';
  const stripe = { amount: o['amount'], currency: o['currency'], destination: o['destination'] };
  const requester = meta(o, 'requesterInstanceId');
  const key = meta(o, 'idempotencyKey');
  const unknown = (): ReconcileDifference => ({
    difference: 'transfer.unknown',
    objectId: id,
    recordId: key,
    stripe,
    ours: null,
  });
  if (!requester || !key) return unknown();
  const payout = await stateOf<PayoutState>(services, paymentPayoutStream(requester, key));
  if (!payout.exists) return unknown();
  const ours = {
    amount: payout.amount,
    currency: payout.currency,
    transferId: payout.transferId,
    failed: payout.failed,
  };
  const base = { objectId: id, recordId: key, stripe, ours };
  if (payout.transferId !== id) return { difference: 'transfer.not_recorded', ...base };
  if (n(o['amount']) !== payout.amount || s(o['currency']) !== payout.currency)
    return { difference: 'transfer.amount_differs', ...base };
  return null;
}

/** Compares Stripe's objects created in the last `sinceHours` with our records. */
export async function reconcilePayments(
  services: PaymentsOperationServices,
  o: { sinceHours?: number | undefined } = {},
): Promise<ReconcileReport> {
  const processor = processorOf(services);
  const now = services.clock.now();
  const hours = o.sinceHours ?? RECONCILE_DEFAULT_HOURS;
  const since = Math.floor(now.getTime() / 1000) - Math.round(hours * 3600);
  const [sessions, refunds, transfers] = await Promise.all([
    processor.listRecent('checkout_sessions', since, RECONCILE_LIST_LIMIT),
    processor.listRecent('refunds', since, RECONCILE_LIST_LIMIT),
    processor.listRecent('transfers', since, RECONCILE_LIST_LIMIT),
  ]);
  const differences: ReconcileDifference[] = [];
  for (const [list, check] of [
    [sessions, checkSession],
    [refunds, checkRefund],
    [transfers, checkTransfer],
  ] as const)
    for (const object of list) {
      const d = await check(services, object);
      if (d) differences.push(d);
    }
  const truncated: ReconcileReport['truncated'] = [];
  if (sessions.length >= RECONCILE_LIST_LIMIT) truncated.push('checkout_sessions');
  if (refunds.length >= RECONCILE_LIST_LIMIT) truncated.push('refunds');
  if (transfers.length >= RECONCILE_LIST_LIMIT) truncated.push('transfers');
  return {
    ranAt: now.toISOString(),
    since: new Date(since * 1000).toISOString(),
    checked: { checkoutSessions: sessions.length, refunds: refunds.length, transfers: transfers.length },
    truncated,
    differences,
  };
}

// Any JSON (typed as JSON, so a strict client reads a type), as Stripe and our records hold it.
const json = z.record(z.string(), z.json());

export const reconcilePaymentsOperation = definePaymentsOperation({
  name: 'svc.payments.reconcile',
  title: 'Reconcile payments with Stripe',
  description:
    'Operators of the global instance: compares the checkout sessions, refunds and transfers Stripe made in ' +
    `the last \`sinceHours\` (default ${RECONCILE_DEFAULT_HOURS}, at most ${RECONCILE_MAX_HOURS}; ` +
    `${RECONCILE_LIST_LIMIT} newest of each kind) with what this instance recorded, and reports each ` +
    'difference by name (checkout.paid_not_recorded, refund.not_recorded, transfer.unknown, …). ' +
    'It changes nothing.',
  kind: 'query',
  scopes: ['svc.admin'],
  enabledFor: ['session', 'token'],
  controllerOnly: true,
  actsForAgent: false,
  input: z.strictObject({ sinceHours: z.number().positive().max(RECONCILE_MAX_HOURS).optional() }),
  output: z.object({
    ranAt: z.string(),
    since: z.string(),
    checked: z.object({ checkoutSessions: z.number(), refunds: z.number(), transfers: z.number() }),
    truncated: z.array(z.enum(['checkout_sessions', 'refunds', 'transfers'])),
    differences: z.array(
      z.object({
        difference: z.enum(RECONCILE_DIFFERENCES),
        objectId: z.string(),
        recordId: z.string().nullable(),
        stripe: json,
        ours: json.nullable(),
      }),
    ),
  }),
  async run(ctx, input) {
    return reconcilePayments(ctx.services, { sinceHours: input.sinceHours });
  },
});
