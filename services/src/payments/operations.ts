// Every operation of this area, the wallet's with them, in catalogue order; services/src/catalogue.ts
// composes the areas' lists.
import type { AnyOperation } from '../pipeline/operation.js';
import { createCheckout } from './create-checkout.js';
import { onboardSeller } from './onboard-seller.js';
import { readConnectedAccount } from './read-connected-account.js';
import { operatorRefund, refundReceipt } from './refund.js';
import { confirmPayout, requestPayout } from './request-payout.js';
import { settleObligation } from './settle-obligation.js';
import { startCheckout } from './start-checkout.js';
import { walletOperations } from './wallet-operations.js';

export const paymentsOperations: readonly AnyOperation[] = [
  startCheckout,
  createCheckout,
  onboardSeller,
  readConnectedAccount,
  requestPayout,
  confirmPayout,
  refundReceipt,
  operatorRefund,
  settleObligation,
  ...walletOperations,
];
