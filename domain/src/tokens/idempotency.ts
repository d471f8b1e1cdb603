// A write sent with an `Idempotency-Key` (docs/architecture.md#idempotency): the claim of (principal,
// operation, key) is an event on a stream named for them, appended in the same transaction as the
// command's own events, so it exists exactly when they do. A retry finds it and answers the first outcome
// instead of writing again.
import { z } from 'zod';
import { streamAggregate } from '../shared/aggregate.js';
import { defineEvent } from '../shared/define-event.js';
import type { StoredEventLike } from '../shared/stored-event-like.js';

/** Named by the SHA-256 of (principal, operation, key), so it holds at most one claim. */
export const idempotencyStream = (digest: string) => `idempotency-${digest}`;

export const idempotencyClaimed = defineEvent({
  type: 'idempotency.claimed',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({
    /** Who sent it: `account:<id>`, `peer:<id>`, `static` or `system`. */
    principal: z.string(),
    operation: z.string(),
    key: z.string(),
    /** SHA-256 of the input's canonical JSON: the same key with another input is refused. */
    requestHash: z.string(),
    /** The id of the command's first event. */
    commandId: z.string(),
    /** When the command ran, and the ids it drew before committing: a retry runs it again with them. */
    now: z.string(),
    ids: z.strictObject({ entityId: z.array(z.string()), eventId: z.array(z.string()) }),
    /** The command's own events. */
    events: z.array(
      z.strictObject({
        id: z.string(),
        type: z.string(),
        stream: z.string(),
        streamVersion: z.number().int(),
      }),
    ),
  }),
});

export type IdempotencyClaim = z.infer<typeof idempotencyClaimed.data>;

export const idempotencyStreams = streamAggregate<IdempotencyClaim | null>('idempotency-', {
  initial: () => null,
  evolve: (state, event: StoredEventLike) =>
    event.type === 'idempotency.claimed' ? (event.data as IdempotencyClaim) : state,
});
