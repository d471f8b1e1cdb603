// The payments area (docs/payments.md): obligations on the seller's instance; checkouts, receipts,
// refunds, payouts, connected accounts and Stripe's webhook events on the global instance.
export * from './money.js';
export * from './limits.js';
export * from './streams.js';
export * from './events.js';
export * from './error-codes.js';
export * from './line-items.js';
export * from './obligation.js';
export * from './checkout.js';
export * from './receipt.js';
export * from './payout.js';
export * from './account.js';
export * from './webhook.js';
export * from './aggregates.js';
