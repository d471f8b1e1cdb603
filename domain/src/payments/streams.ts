// The payments area's streams (docs/payments.md#records). Each is keyed so that the one thing that must
// happen once races on one stream: an obligation on the seller's instance; on the global instance a
// requester's checkout, a receipt (and its refunds), a requester's payout, a party's connected account and
// a Stripe webhook event.
export const paymentObligationStream = (obligationId: string) => `payment-obligation-${obligationId}`;
export const paymentCheckoutStream = (requesterInstanceId: string, obligationId: string) =>
  `payment-checkout-${requesterInstanceId}-${obligationId}`;
export const paymentReceiptStream = (receiptId: string) => `payment-receipt-${receiptId}`;
export const paymentPayoutStream = (requesterInstanceId: string, idempotencyKey: string) =>
  `payment-payout-${requesterInstanceId}-${idempotencyKey}`;
export const paymentAccountStream = (instanceId: string, agentId: string) =>
  `payment-account-${instanceId}-${agentId}`;
export const paymentWebhookStream = (eventId: string) => `payment-webhook-${eventId}`;

/** The scopes of the wallet (spec §2): reading a person's payment records, and moving money. */
export const WALLET_SCOPES = { read: 'svc.wallet.read', spend: 'svc.wallet.spend' } as const;

/** Obligation ids and idempotency keys: what Stripe accepts in a key, and safe in a stream name. */
export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9_-]{8,64}$/;
