// The wallet's operations (docs/payments.md#wallet-tools) and the operators' reconciliation
// (docs/payments.md#reconciliation), composed into the area's list (operations.ts).
import type { AnyOperation } from '../pipeline/operation.js';
import { reconcilePaymentsOperation } from './reconcile.js';
import { startWalletPayout } from './wallet-spend.js';
import { readWalletPlatformAccount } from './wallet-read-platform-account.js';
import { startWalletOnboarding } from './wallet-start-onboarding.js';
import {
  listWalletPayouts,
  listWalletReceipts,
  readWalletAccount,
  readWalletBalance,
} from './wallet-read.js';

export const walletOperations: readonly AnyOperation[] = [
  listWalletReceipts,
  listWalletPayouts,
  readWalletBalance,
  readWalletAccount,
  readWalletPlatformAccount,
  startWalletOnboarding,
  startWalletPayout,
  reconcilePaymentsOperation,
];
