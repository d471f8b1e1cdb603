// The payments area's stated limits (docs/payments.md#limits).

/** Line items in one checkout. */
export const MAX_LINE_ITEMS = 20;
/** Quantity of one line item. */
export const MAX_LINE_ITEM_QUANTITY = 999;
/** Length of a line item's name. */
export const MAX_LINE_ITEM_NAME = 120;
/** Stripe's signature tolerance for webhooks: older signatures are refused. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;
/** A webhook body, at most (Stripe's events are far smaller). */
export const WEBHOOK_MAX_BYTES = 256 * 1024;
/** A payments request body (checkout, onboarding, payout, refund, settlement), at most. */
export const PAYMENTS_REQUEST_MAX_BYTES = 32 * 1024;
