// Step 8 of the pipeline: wrap each new event in its envelope and sign it, stream by stream, all of a
// command's events in one Signer.sealMany.
import { eventDefinition, type NewEvent, type UnsignedEnvelope } from '@tributary/domain';
import type { AppendStream } from '../ports/event-store.js';
import type { Ids } from '../ports/runtime.js';
import type { Signer } from '../ports/signer.js';

export async function sealEvents(
  events: readonly NewEvent[],
  expectedVersions: ReadonlyMap<string, number>,
  ctx: { signer: Signer; ids: Ids; actorId: string; occurredAt: string },
): Promise<AppendStream[]> {
  const byStream = new Map<string, AppendStream>();
  const unsigned: UnsignedEnvelope[] = [];
  const targets: AppendStream[] = [];
  const next = new Map<string, number>();
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
    const version = (next.get(e.stream) ?? target.expectedVersion) + 1;
    next.set(e.stream, version);
    unsigned.push({
      v: 1,
      id: ctx.ids.eventId(),
      type: e.type,
      origin: ctx.signer.origin,
      keyId: ctx.signer.keyId,
      stream: e.stream,
      streamVersion: version,
      actorId: ctx.actorId,
      occurredAt: ctx.occurredAt,
      nonce: ctx.ids.nonce(),
      data: e.data as Record<string, unknown>,
    });
    targets.push(target);
  }
  const sealed = await ctx.signer.sealMany(unsigned);
  sealed.forEach((s, i) => targets[i]!.envelopes.push(s));
  return [...byStream.values()];
}
