// The payments area's events (docs/payments.md#records). Money never leaves the instance on the feed:
// every event here is neither federable nor public; what another instance must know travels as a
// signed federation request (a checkout, a settlement), never as a feed event.
import { z } from 'zod';
import { defineEvent, type EventDefinition } from '../shared/define-event.js';
import { MAX_AMOUNT_MINOR, PAYMENT_CURRENCIES } from './money.js';

const amount = z.number().int().positive().max(MAX_AMOUNT_MINOR);
const currency = z.enum(PAYMENT_CURRENCIES);
const id = z.string().min(1).max(255);

export const lineItemSchema = z.strictObject({
  name: z.string().min(1).max(120),
  /** Unit amount, minor units. */
  amount,
  quantity: z.number().int().min(1).max(999),
});
export type LineItem = z.infer<typeof lineItemSchema>;

/** A seller or payee: an agent of an instance (the global instance's own id for its own people). */
export const partySchema = z.strictObject({ instanceId: id, agentId: id });
export type PaymentParty = z.infer<typeof partySchema>;

const priv = { version: 1, federable: false, public: false } as const;

/** Seller's instance: what a buyer owes, recorded before the checkout is asked for. */
export const paymentObligationRecorded = defineEvent({
  ...priv,
  type: 'payment.obligation_recorded',
  data: z.strictObject({
    obligationId: id,
    /** The seller's own key, when the obligation's id is derived from it and the seller. */
    key: id.optional(),
    sellerAgentId: id,
    lineItems: z.array(lineItemSchema).min(1).max(20),
    amount,
    currency,
    description: z.string().max(500).nullable(),
    /** The digest of the request, so a reused obligation id with another body is told apart. */
    requestHash: z.string().max(128),
    recordedAt: z.string(),
  }),
});

/** Seller's instance: the checkout the global instance opened for the obligation. */
export const paymentObligationCheckoutOpened = defineEvent({
  ...priv,
  type: 'payment.obligation_checkout_opened',
  data: z.strictObject({ obligationId: id, sessionId: id, url: z.string().max(2048) }),
});

/** Seller's instance: the global instance's signed word that the obligation was paid. Once. */
export const paymentObligationSettled = defineEvent({
  ...priv,
  type: 'payment.obligation_settled',
  data: z.strictObject({
    obligationId: id,
    receiptId: id,
    amount,
    currency,
    sessionId: id,
    settledAt: z.string(),
  }),
});

/** Global instance: a Checkout Session created for a requester's obligation. */
export const paymentCheckoutSessionCreated = defineEvent({
  ...priv,
  type: 'payment.checkout_session_created',
  data: z.strictObject({
    requesterInstanceId: id,
    obligationId: id,
    seller: partySchema,
    connectedAccountId: id,
    /** The requesting agent here (a sovereign's instance agent, or one of our own people). */
    requestedBy: id,
    lineItems: z.array(lineItemSchema).min(1).max(20),
    amount,
    currency,
    successUrl: z.string().max(2048),
    cancelUrl: z.string().max(2048),
    requestHash: z.string().max(128),
    sessionId: id,
    url: z.string().max(2048),
    createdAt: z.string(),
  }),
});

/** Global instance: checkout completed and paid; the receipt is written in the same append. */
export const paymentCheckoutCompleted = defineEvent({
  ...priv,
  type: 'payment.checkout_completed',
  data: z.strictObject({ obligationId: id, requesterInstanceId: id, receiptId: id, webhookEventId: id }),
});

/** Global instance: the seller's instance acknowledged the settlement (or it was local). */
export const paymentSettlementDelivered = defineEvent({
  ...priv,
  type: 'payment.settlement_delivered',
  data: z.strictObject({
    obligationId: id,
    requesterInstanceId: id,
    receiptId: id,
    deliveredAt: z.string(),
  }),
});

/** Global instance: money received for a checkout (a receipt, refundable by its id). */
export const paymentReceiptSettled = defineEvent({
  ...priv,
  type: 'payment.receipt_settled',
  data: z.strictObject({
    receiptId: id,
    requesterInstanceId: id,
    obligationId: id,
    seller: partySchema,
    connectedAccountId: id,
    sessionId: id,
    paymentIntentId: id,
    amount,
    currency,
    settledAt: z.string(),
  }),
});

/**
 * Global instance: a refund asked for, recorded before Stripe is called so the amount is reserved; the
 * amount is ours, re-derived from the receipt, never the request's.
 */
export const paymentRefundRequested = defineEvent({
  ...priv,
  type: 'payment.refund_requested',
  data: z.strictObject({
    receiptId: id,
    idempotencyKey: id,
    requestedBy: id,
    requesterInstanceId: id,
    amount,
    currency,
    reason: z.string().max(500).nullable(),
    requestHash: z.string().max(128),
    requestedAt: z.string(),
  }),
});

/** Global instance: Stripe's refund for a recorded request (made with the request's Idempotency-Key). */
export const paymentRefundCreated = defineEvent({
  ...priv,
  type: 'payment.refund_created',
  data: z.strictObject({
    receiptId: id,
    idempotencyKey: id,
    refundId: id,
    status: z.string().max(40),
    createdAt: z.string(),
  }),
});

/**
 * Global instance: a refund's final state, from Stripe's webhook, or `failed` with no refund id when
 * Stripe refused to create it (the reserved amount is released).
 */
export const paymentRefundSettled = defineEvent({
  ...priv,
  type: 'payment.refund_settled',
  data: z.strictObject({
    receiptId: id,
    idempotencyKey: id.nullable(),
    refundId: id.nullable(),
    amount,
    currency,
    status: z.enum(['succeeded', 'failed', 'canceled']),
    settledAt: z.string(),
  }),
});

/** Global instance: a dispute opened or changed on a receipt's payment. */
export const paymentDisputeUpdated = defineEvent({
  ...priv,
  type: 'payment.dispute_updated',
  data: z.strictObject({
    receiptId: id,
    disputeId: id,
    amount,
    currency,
    status: z.string().max(60),
    updatedAt: z.string(),
  }),
});

/** Global instance: a payout asked for (by a sovereign for its payee, or by our own people). */
export const paymentPayoutRequested = defineEvent({
  ...priv,
  type: 'payment.payout_requested',
  data: z.strictObject({
    requesterInstanceId: id,
    idempotencyKey: id,
    payee: partySchema,
    requestedBy: id,
    amount,
    currency,
    reference: z.string().max(200),
    requestHash: z.string().max(128),
    /** Above PAYMENTS_PAYOUT_CONFIRM_ABOVE an operator must confirm before the transfer. */
    needsConfirmation: z.boolean(),
    requestedAt: z.string(),
  }),
});

/** Global instance: an operator confirmed a payout above the threshold. */
export const paymentPayoutConfirmed = defineEvent({
  ...priv,
  type: 'payment.payout_confirmed',
  data: z.strictObject({
    requesterInstanceId: id,
    idempotencyKey: id,
    confirmedBy: id,
    confirmedAt: z.string(),
  }),
});

/** Global instance: the transfer to the payee's connected account, made once. */
export const paymentTransferCreated = defineEvent({
  ...priv,
  type: 'payment.transfer_created',
  data: z.strictObject({
    requesterInstanceId: id,
    idempotencyKey: id,
    transferId: id,
    connectedAccountId: id,
    amount,
    currency,
    createdAt: z.string(),
  }),
});

/** Global instance: the transfer was refused (final for this idempotency key; a new key may retry). */
export const paymentPayoutFailed = defineEvent({
  ...priv,
  type: 'payment.payout_failed',
  data: z.strictObject({
    requesterInstanceId: id,
    idempotencyKey: id,
    reason: z.enum(['insufficient_funds', 'needs_onboarding', 'refused']),
    processorCode: z.string().max(100).nullable(),
    failedAt: z.string(),
  }),
});

/** Global instance: Stripe's payout from a connected account to its bank (from its webhook). */
export const paymentPayoutUpdated = defineEvent({
  ...priv,
  type: 'payment.payout_updated',
  data: z.strictObject({
    connectedAccountId: id,
    payoutId: id,
    amount,
    currency,
    status: z.string().max(40),
    updatedAt: z.string(),
  }),
});

/** Global instance: a seller's or payee's connected account, created once per party. */
export const paymentConnectedAccountCreated = defineEvent({
  ...priv,
  type: 'payment.connected_account_created',
  data: z.strictObject({
    party: partySchema,
    accountId: id,
    country: z.string().length(2),
    createdAt: z.string(),
  }),
});

/** Global instance: the account's state as Stripe's `account.updated` tells it. */
export const paymentConnectedAccountUpdated = defineEvent({
  ...priv,
  type: 'payment.connected_account_updated',
  data: z.strictObject({
    party: partySchema,
    accountId: id,
    detailsSubmitted: z.boolean(),
    chargesEnabled: z.boolean(),
    payoutsEnabled: z.boolean(),
    updatedAt: z.string(),
  }),
});

/** Global instance: a verified webhook event, recorded once by Stripe's event id. */
export const paymentWebhookEventReceived = defineEvent({
  ...priv,
  type: 'payment.webhook_event_received',
  data: z.strictObject({
    eventId: id,
    eventType: z.string().max(100),
    /** Stripe's `created` (seconds): events are processed in the order received, never by it. */
    created: z.number().int(),
    livemode: z.boolean(),
    /** The event's JSON as Stripe sent it (bounded by the webhook body limit). */
    payload: z.string(),
    receivedAt: z.string(),
  }),
});

/** Global instance: what processing a webhook event did (`outcome`), so it is done once. */
export const paymentWebhookEventProcessed = defineEvent({
  ...priv,
  type: 'payment.webhook_event_processed',
  data: z.strictObject({
    eventId: id,
    outcome: z.string().max(60),
    processedAt: z.string(),
  }),
});

export const paymentsEvents = [
  paymentObligationRecorded,
  paymentObligationCheckoutOpened,
  paymentObligationSettled,
  paymentCheckoutSessionCreated,
  paymentCheckoutCompleted,
  paymentSettlementDelivered,
  paymentReceiptSettled,
  paymentRefundRequested,
  paymentRefundCreated,
  paymentRefundSettled,
  paymentDisputeUpdated,
  paymentPayoutRequested,
  paymentPayoutConfirmed,
  paymentTransferCreated,
  paymentPayoutFailed,
  paymentPayoutUpdated,
  paymentConnectedAccountCreated,
  paymentConnectedAccountUpdated,
  paymentWebhookEventReceived,
  paymentWebhookEventProcessed,
] as const satisfies readonly EventDefinition[];
