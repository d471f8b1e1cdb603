// The payments area (docs/payments.md).
export * from './payments-of.js';
export * from './support.js';
export { createCheckout } from './create-checkout.js';
export { startCheckout } from './start-checkout.js';
export { onboardSeller, onboardParty } from './onboard-seller.js';
export { readConnectedAccount } from './read-connected-account.js';
export { startWalletOnboarding } from './wallet-start-onboarding.js';
export { readWalletPlatformAccount } from './wallet-read-platform-account.js';
export { requestPayout, confirmPayout, transferPayout } from './request-payout.js';
export { refundReceipt } from './refund.js';
export { settleObligation } from './settle-obligation.js';
export { receiveWebhook, processWebhookEvent, deliverSettlements, receiptIdOf } from './webhooks.js';
export { paymentsOperations } from './operations.js';
export * from './wallet-read.js';
export { walletOperations } from './wallet-operations.js';
export { paymentRecordsOf, type AgentPaymentRecords } from './export-payments.js';
export * from './reconcile.js';
export { startWalletPayout } from './wallet-spend.js';
