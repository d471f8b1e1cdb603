// The payments area's error codes; docs/api.md's table is generated from these descriptions.
// `federation.global_only` (in the federation list) refuses what only the global instance may do.
import type { ErrorCodeList } from '../shared/error-kind.js';

export const PAYMENTS_ERROR_CODES = {
  'payments.disabled': {
    kinds: ['unavailable'],
    description:
      'payments are not configured on this instance (no `STRIPE_SECRET_KEY`/`STRIPE_WEBHOOK_SECRET`), or the global instance answered so',
  },
  'payments.amount_invalid': {
    kinds: ['invalid'],
    description:
      'an amount is not a positive integer of minor units up to 99,999,999 (or a line total overflows it); `field` says which',
  },
  'payments.currency_unknown': {
    kinds: ['invalid'],
    description: 'the currency is not one of the lowercase ISO 4217 codes listed in `currencies`',
  },
  'payments.line_items_invalid': {
    kinds: ['invalid'],
    description: 'line items must be 1 to 20, each with a name (1–120 characters) and a quantity of 1 to 999',
  },
  'payments.url_off_instance': {
    kinds: ['invalid'],
    description:
      'a success, cancel, return or refresh URL is not an https (or loopback http) address on the requesting instance; `field` says which',
  },
  'payments.idempotency_key_invalid': {
    kinds: ['invalid'],
    description: 'an obligation id or idempotency key is not 8–64 characters of `A-Za-z0-9_-`',
  },
  'payments.idempotency_key_reused': {
    kinds: ['unprocessable'],
    description:
      'that obligation id or idempotency key was already used by the same caller with a different request',
  },
  'payments.country_required': {
    kinds: ['invalid'],
    description:
      'a connected account needs the seller’s country as an ISO 3166-1 alpha-2 code; it is never defaulted',
  },
  'payments.no_connected_account': {
    kinds: ['invalid'],
    description: 'the seller or payee has no connected account on the global instance; onboard them first',
  },
  'payments.seller_not_ready': {
    kinds: ['invalid'],
    description: 'the seller’s connected account cannot take charges yet (onboarding not finished)',
  },
  'payments.obligation_unknown': {
    kinds: ['not_found'],
    description: 'no obligation with that id was recorded here: a settlement for it is refused',
  },
  'payments.obligation_mismatch': {
    kinds: ['conflict'],
    description: 'the settlement’s amount, currency or seller differs from the recorded obligation',
  },
  'payments.receipt_not_found': {
    kinds: ['not_found'],
    description: 'no receipt with that id, or not one the asker may refund (the same answer for both)',
  },
  'payments.refund_exceeds_remaining': {
    kinds: ['invalid'],
    description: 'the refund is larger than what is left of the payment; `remaining` says how much is',
  },
  'payments.payout_not_found': {
    kinds: ['not_found'],
    description: 'no payout with that id awaits confirmation',
  },
  'payments.webhook_signature_invalid': {
    kinds: ['invalid'],
    description:
      'the `Stripe-Signature` header is missing, malformed, stale (over 300 s) or does not match the raw body',
  },
  'payments.webhook_malformed': {
    kinds: ['invalid'],
    description: 'a signed webhook body is not a Stripe event (no `id`, `type` or `data.object`)',
  },
  'payments.processor_refused': {
    kinds: ['invalid'],
    description: 'Stripe refused the request as invalid; `processorCode` carries Stripe’s own code',
  },
  'payments.processor_unavailable': {
    kinds: ['unavailable'],
    description: 'Stripe could not be reached, timed out or failed; a retry with the same key is safe',
  },
} as const satisfies ErrorCodeList;
