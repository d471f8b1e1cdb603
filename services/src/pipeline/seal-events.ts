// Step 6 of the pipeline: wrap each new event in its envelope and sign it, stream by stream.
import { eventDefinition, type NewEvent } from '@tributary/domain';
import type { AppendStream } from '../ports/event-store.js';
import type { Ids } from '../ports/runtime.js';
import type { Signer } from '../ports/signer.js';

export function sealEvents(
  events: readonly NewEvent[],
  expectedVersions: ReadonlyMap<string, number>,
  ctx: { signer: Signer; ids: Ids; actorId: string; occurredAt: string },
): AppendStream[] {
  const byStream = new Map<string, AppendStream>();
  for (const e of events) {
    const def = eventDefinition(e.type);
    if (!def) throw new Error(`event type ${e.type} is not in the catalogue`);
    // Our own events must match their schema exactly; a mismatch is a bug, caught before signing.
    def.data.parse(e.data);
    let target = byStream.get(e.stream);
    if (!target) {
      const expected = expectedVersions.get(e.stream);
      if (expected === undefined) throw new Error(`stream ${e.stream} was not loaded before deciding`);
      target = { stream: e.stream, expectedVersion: expected, envelopes: [] };
      byStream.set(e.stream, target);
    }
    const sealed = ctx.signer.seal({
      v: 1,
      id: ctx.ids.eventId(),
      type: e.type,
      origin: ctx.signer.origin,
      keyId: ctx.signer.keyId,
      stream: e.stream,
      streamVersion: target.expectedVersion + target.envelopes.length + 1,
      actorId: ctx.actorId,
      occurredAt: ctx.occurredAt,
      nonce: ctx.ids.nonce(),
      data: e.data as Record<string, unknown>,
    });
    target.envelopes.push(sealed);
  }
  return [...byStream.values()];
}
