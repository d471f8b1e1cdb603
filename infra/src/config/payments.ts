// Payments (docs/payments.md#configuration); the Stripe secrets are in secrets.ts.
import { rateLimit, unsetWhenEmpty, type ConfigCheck } from './fields.js';
import { httpUrlSchema } from '@tributary/domain';
import { z } from 'zod';

export const paymentsVariables = {
  // Off unless both Stripe secrets are set. STRIPE_API_BASE points the stripe package elsewhere (tests:
  // the loopback server that speaks Stripe's API).
  STRIPE_API_BASE: unsetWhenEmpty(httpUrlSchema().optional()),
  PAYMENTS_PAYOUT_CONFIRM_ABOVE: z.coerce.number().int().min(0).max(99_999_999).default(100_000),
  PAYMENTS_STRIPE_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(120_000).default(20_000),
  PAYMENTS_WORKER_INTERVAL_MS: z.coerce.number().int().min(50).max(60_000).default(1_000),
  // Payments reconciliation with Stripe (docs/payments.md#reconciliation): how often (0: never on a
  // schedule) and how far back each run looks.
  PAYMENTS_RECONCILE_SECONDS: z.coerce
    .number()
    .int()
    .min(0)
    .max(7 * 24 * 3600)
    .default(3600),
  PAYMENTS_RECONCILE_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 30)
    .default(24),
  // Stripe's webhook: deliveries refused as not Stripe's (bad signature, not an event) per address;
  // past it the address is answered 429 until its budget refills. Accepted deliveries are not counted.
  RATE_LIMIT_WEBHOOK_REFUSALS: rateLimit('RATE_LIMIT_WEBHOOK_REFUSALS', '60/min'),
};

export const paymentsChecks: ConfigCheck<{
  STRIPE_SECRET_KEY?: string | undefined;
  STRIPE_WEBHOOK_SECRET?: string | undefined;
  STRIPE_CONNECT_WEBHOOK_SECRET?: string | undefined;
}>[] = [
  {
    holds: (c) => (c.STRIPE_SECRET_KEY === undefined) === (c.STRIPE_WEBHOOK_SECRET === undefined),
    path: 'STRIPE_SECRET_KEY',
    message: 'payments need STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET together',
  },
  {
    holds: (c) => c.STRIPE_CONNECT_WEBHOOK_SECRET === undefined || c.STRIPE_WEBHOOK_SECRET !== undefined,
    path: 'STRIPE_CONNECT_WEBHOOK_SECRET',
    message: 'STRIPE_CONNECT_WEBHOOK_SECRET needs STRIPE_WEBHOOK_SECRET (and STRIPE_SECRET_KEY)',
  },
];
