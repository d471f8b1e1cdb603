// The streams of this area and the fold each one uses.
import type { StreamAggregate } from '../shared/aggregate.js';
import { accountStreams } from './account.js';
import { checkoutStreams } from './checkout.js';
import { obligationStreams } from './obligation.js';
import { payoutStreams } from './payout.js';
import { receiptStreams } from './receipt.js';
import { webhookStreams } from './webhook.js';

export const paymentsAggregates: readonly StreamAggregate[] = [
  obligationStreams,
  checkoutStreams,
  receiptStreams,
  payoutStreams,
  accountStreams,
  webhookStreams,
];
