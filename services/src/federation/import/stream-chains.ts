// The origin's streams stay chains: an event must extend its stream past the highest version imported
// (from the log, then from this batch). Who holds a version at or below the log's head is asked only
// when some event is there, which an honest peer never sends — nor a relay, but to fill a gap it left
// (docs/federation.md#gaps-in-an-origins-chain). Refusing an event that holds a taken version keeps both
// as evidence of equivocation; accepting one past a relayed skip records the gap.
import { chainGap, chainRefusal, type DomainError } from '@tributary/domain';
import { versionPlace, type Equivocation, type ImportTransaction } from '../ports/federation.js';
import type { Placed } from './batch.js';

export interface StreamChains {
  /** Why `c` cannot go on its chain (an equivocation is kept as evidence), or null. */
  refusal(c: Placed): DomainError | null;
  /** `c` goes on its chain: it becomes the head where it is past it, and a relayed skip is a gap. */
  extend(c: Placed): void;
  equivocations: Equivocation[];
  gaps: { origin: string; stream: string; fromVersion: number; toVersion: number; detectedAt: Date }[];
}

export async function streamChains(
  tx: ImportTransaction,
  o: { origin: string; now: Date; relayed: boolean },
  fresh: readonly Placed[],
  /** Per local stream, the highest origin version imported (as looked up; moved on as events extend it). */
  heads: Map<string, number>,
): Promise<StreamChains> {
  const { origin, now } = o;
  const held = new Map<string, { eventId: string; text: string }>();
  const behind = fresh.filter((c) => c.envelope.streamVersion <= (heads.get(c.localStream) ?? 0));
  let inGaps = new Set<string>();
  if (behind.length > 0) {
    const places = behind.map((c) => ({ localStream: c.localStream, version: c.envelope.streamVersion }));
    for (const [place, holder] of await tx.versionHolders(origin, places)) held.set(place, holder);
    if (o.relayed)
      inGaps = await tx.inGaps(
        origin,
        behind.map((c) => ({ stream: c.envelope.stream, version: c.envelope.streamVersion })),
      );
  }
  const chains: StreamChains = {
    equivocations: [],
    gaps: [],
    refusal(c) {
      const holder = held.get(versionPlace(c.localStream, c.envelope.streamVersion));
      const head = heads.get(c.localStream) ?? 0;
      const fills = inGaps.has(versionPlace(c.envelope.stream, c.envelope.streamVersion));
      const outOfChain = chainRefusal(c.envelope, head, holder?.eventId, fills);
      if (outOfChain?.code === 'federation.equivocation')
        chains.equivocations.push({
          origin,
          stream: c.envelope.stream,
          streamVersion: c.envelope.streamVersion,
          heldEventId: holder!.eventId,
          heldEnvelope: holder!.text,
          refusedEventId: c.envelope.id,
          refusedEnvelope: c.text,
          detectedAt: now,
        });
      return outOfChain;
    },
    extend(c) {
      const head = heads.get(c.localStream) ?? 0;
      if (c.envelope.streamVersion > head) {
        const gap = o.relayed ? chainGap(c.envelope, head) : null;
        if (gap) chains.gaps.push({ origin, stream: c.envelope.stream, ...gap, detectedAt: now });
        heads.set(c.localStream, c.envelope.streamVersion);
      }
      held.set(versionPlace(c.localStream, c.envelope.streamVersion), {
        eventId: c.envelope.id,
        text: c.text,
      });
    },
  };
  return chains;
}
