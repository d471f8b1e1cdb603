// Stripe's webhook intake on the global instance (docs/payments.md#exactly-once): the signature checked
// on the raw body, the event recorded once by its id in the intake's table (one durable commit shared by
// concurrent deliveries, nothing read first), answered once that commit returned. The payments worker
// then puts each recorded event on the log in batches (`payment.webhook_event_received`), where the
// consumer processes it (webhooks.ts).
import {
  decideReceiveWebhookEvent,
  eventDefinition,
  fold,
  invalid,
  isDomainError,
  paymentWebhookStream,
  type NewEvent,
  type WebhookEventState,
} from '@tributary/domain';
import { commitEvents } from '../pipeline/execute.js';
import type { PaymentsOperationServices } from './payments-operation.js';
import type { ReceivedWebhookEvent } from './ports.js';
import { processorOf } from './payments-of.js';
import { instanceActor } from './support.js';

/** The log event of a recorded webhook (its stream is new: nothing was recorded under that id before). */
const receivedEvent = (e: ReceivedWebhookEvent): NewEvent[] => {
  const { receivedAt, ...cmd } = e;
  return decideReceiveWebhookEvent({ ...cmd, now: receivedAt }, { received: false, processed: false });
};

/** Records a verified webhook event once, durably; `duplicate` when it was already recorded. */
export async function receiveWebhook(
  services: PaymentsOperationServices,
  rawBody: Buffer,
  signature: string | undefined,
): Promise<{ eventId: string; duplicate: boolean }> {
  const processor = processorOf(services);
  const event = processor.verifyWebhook(rawBody, signature);
  const received: ReceivedWebhookEvent = {
    eventId: event.id,
    eventType: event.type,
    created: event.created,
    livemode: event.livemode,
    payload: rawBody.toString('utf8'),
    receivedAt: services.clock.now().toISOString(),
  };
  // Checked now against the log event's schema: what the intake accepts, the worker can always record.
  for (const e of receivedEvent(received))
    if (!eventDefinition(e.type)!.data.safeParse(e.data).success)
      throw invalid('payments.webhook_malformed', 'the body is not a Stripe event we can record');
  const { duplicate } = await services.payments.inbox.record(received);
  if (!duplicate) services.payments?.wake?.();
  return { eventId: event.id, duplicate };
}

/**
 * Puts up to `limit` recorded webhook events on the log, oldest first, as one append (each on its own new
 * stream, nothing read first), then marks them logged; returns how many it took. An event whose stream
 * already holds it (a crash between the append and the mark, another process's pass) is left as it is.
 */
export async function logReceivedWebhooks(
  services: PaymentsOperationServices,
  limit: number,
): Promise<number> {
  const { inbox } = services.payments;
  const pending = await inbox.pending(limit);
  if (pending.length === 0) return 0;
  const actor = await instanceActor(services);
  const append = (events: readonly ReceivedWebhookEvent[]) => {
    const streams = events.map((e) => paymentWebhookStream(e.eventId));
    const fresh = new Map(streams.map((s) => [s, { state: fold(s, []) as WebhookEventState, version: 0 }]));
    return commitEvents(
      services,
      streams,
      () => events.flatMap(receivedEvent),
      actor.agentId,
      undefined,
      fresh,
    );
  };
  const alreadyLogged = (e: unknown) => isDomainError(e) && e.code === 'log.stream_conflict';
  try {
    await append(pending);
  } catch (e) {
    if (!alreadyLogged(e)) throw e;
    // Some are on the log already: the rest one by one.
    for (const one of pending)
      await append([one]).catch((e2: unknown) => {
        if (!alreadyLogged(e2)) throw e2;
      });
  }
  await inbox.markLogged(pending.map((e) => e.eventId));
  return pending.length;
}
