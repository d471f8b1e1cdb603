// The payment processor, or `payments.disabled`: with nothing configured every payment route says so.
import { DomainError, IDEMPOTENCY_KEY_PATTERN, invalid } from '@tributary/domain';
import { createHash } from 'node:crypto';
import type { PaymentProcessor } from './ports.js';
import type { PaymentsAreaServices } from './payments-operation.js';

const disabled = () =>
  new DomainError('payments.disabled', 'unavailable', 'payments are not configured on this instance');

/** The payment processor: present only with STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET set. */
export function processorOf(services: PaymentsAreaServices): PaymentProcessor {
  const processor = services.payments?.processor;
  if (!processor) throw disabled();
  return processor;
}

/** Whether payments are on here (the status documents say so). */
export const paymentsEnabled = (services: PaymentsAreaServices): boolean =>
  services.payments?.processor !== undefined;

/** An obligation id or idempotency key: 8–64 of `A-Za-z0-9_-` (safe in a stream name and as Stripe's key). */
export function requireIdempotencyKey(key: unknown, field = 'idempotencyKey'): string {
  if (typeof key !== 'string' || !IDEMPOTENCY_KEY_PATTERN.test(key))
    throw invalid('payments.idempotency_key_invalid', 'a key is 8–64 characters of A-Za-z0-9_-', { field });
  return key;
}

/**
 * A URL the buyer or seller is sent back to must be on the requesting instance: the same origin as its
 * base URL (so https in production, loopback http in tests), with no user info.
 */
export function requireUrlOnInstance(url: unknown, instanceBaseUrl: string, field: string): string {
  let parsed: URL;
  try {
    if (typeof url !== 'string' || url.length > 2048) throw new Error('not a string');
    parsed = new URL(url);
  } catch {
    throw invalid('payments.url_off_instance', `${field} is not a URL`, { field });
  }
  const base = new URL(instanceBaseUrl);
  if (parsed.origin !== base.origin || parsed.username !== '' || parsed.password !== '')
    throw invalid('payments.url_off_instance', `${field} must be on ${base.origin}`, { field });
  return parsed.toString();
}

/**
 * The digest of a request as it bears on its effect (canonical: keys sorted), so the same idempotency
 * key with another body is told apart from a retry.
 */
export function requestHash(parts: Record<string, unknown>): string {
  const canonical = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(canonical)
      : v !== null && typeof v === 'object'
        ? Object.fromEntries(
            Object.keys(v as Record<string, unknown>)
              .sort()
              .map((k) => [k, canonical((v as Record<string, unknown>)[k])]),
          )
        : v;
  return createHash('sha256')
    .update(JSON.stringify(canonical(parts)))
    .digest('hex');
}

/**
 * The id an obligation is recorded under when its key is another seller's: the key scoped to the seller,
 * so one person's key never squats another's (docs/payments.md#checkout). A digest, so it is a valid key
 * and stream name itself; a key of that shape is never taken as an id as it is (`mayStandAlone`), so no
 * one can occupy another's scoped id.
 */
export const scopedObligationId = (sellerAgentId: string, key: string): string =>
  `ob_${createHash('sha256').update(`obligation\u0000${sellerAgentId}\u0000${key}`).digest('base64url').slice(0, 43)}`;

const SCOPED_ID = /^ob_[A-Za-z0-9_-]{43}$/;

/**
 * The id a seller's key is recorded under: the key itself while it is free or already this seller's,
 * else the key scoped to the seller. `owner` is the seller of what the key alone names, null if nothing.
 */
export const obligationIdFor = (sellerAgentId: string, key: string, owner: string | null): string =>
  !SCOPED_ID.test(key) && (owner === null || owner === sellerAgentId)
    ? key
    : scopedObligationId(sellerAgentId, key);

/**
 * The Idempotency-Key sent to Stripe for one of our effects: derived from our own ids (never random),
 * so a retry after a crash sends the same key and Stripe answers the first result.
 */
export const processorKey = (...parts: string[]): string =>
  `trib-${createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 48)}`;
