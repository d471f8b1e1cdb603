// Stripe's webhook events on the global instance (docs/payments.md#webhooks): recorded once by Stripe's
// event id (a redelivery writes nothing), then processed once by a checkpointed consumer of the log.
import { streamAggregate } from '../shared/aggregate.js';
import type { NewEvent } from '../shared/envelope.js';
import type { StoredEventLike } from '../shared/stored-event-like.js';
import { paymentWebhookStream } from './streams.js';

export interface WebhookEventState {
  received: boolean;
  processed: boolean;
}

export const webhookStreams = streamAggregate<WebhookEventState>('payment-webhook-', {
  initial: () => ({ received: false, processed: false }),
  evolve: (s: WebhookEventState, e: StoredEventLike) =>
    e.type === 'payment.webhook_event_received'
      ? { ...s, received: true }
      : e.type === 'payment.webhook_event_processed'
        ? { ...s, processed: true }
        : s,
});

export function decideReceiveWebhookEvent(
  cmd: {
    eventId: string;
    eventType: string;
    created: number;
    livemode: boolean;
    payload: string;
    now: string;
  },
  s: WebhookEventState,
): NewEvent[] {
  if (s.received) return [];
  const { now, ...data } = cmd;
  return [
    {
      stream: paymentWebhookStream(cmd.eventId),
      type: 'payment.webhook_event_received',
      data: { ...data, receivedAt: now },
    },
  ];
}

export function decideProcessWebhookEvent(
  cmd: { eventId: string; outcome: string; now: string },
  s: WebhookEventState,
): NewEvent[] {
  if (!s.received || s.processed) return [];
  return [
    {
      stream: paymentWebhookStream(cmd.eventId),
      type: 'payment.webhook_event_processed',
      data: { eventId: cmd.eventId, outcome: cmd.outcome, processedAt: cmd.now },
    },
  ];
}
