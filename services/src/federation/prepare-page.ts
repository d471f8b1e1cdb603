// A pulled page made ready for its import: split on the bytes received, each event parsed, and each
// signature checked under the key its origin has here now, the verifier remembering the good ones
// (docs/federation.md#pull). A pull prepares the next page as soon as it arrives, while the page before
// it is still being imported: the CPU-bound part of one page overlaps the database work of the other.
//
// Nothing here decides anything. The import still applies every rule to every event and asks the
// verifier about each signature under the key it picks itself (its own reading of the keys, rotations
// announced in the batch included); an answer comes from memory only for that same frozen envelope and
// that same key, and any other is verified then.
//
// The subject of each `agent.created` in the page is most often an agent new here, whose binding the
// import records with an `agent.materialized` of our own: those are sealed here too (their signing off
// the import's critical path), and the import takes one only if it binds that very agent anew under the
// origin's lock (import-events.ts); the others are dropped unused.
import { agentStream, type Envelope, type EventData } from '@tributary/domain';
import { sealEvents } from '../pipeline/seal-events.js';
import type { Services } from '../pipeline/services.js';
import type { ExportedPage, PeerView } from '../ports/federation.js';
import { federationOf } from './federation-of.js';
import { bindingKey, type PresealedBinding } from './import-events.js';

export interface PreparedPage extends ExportedPage {
  /** Each event's envelope, parsed; undefined where parsing failed (the import parses it again to say why). */
  envelopes: (Envelope | undefined)[];
  /** Bindings' records sealed ahead, by `bindingKey`. */
  presealed: Map<string, PresealedBinding>;
}

export async function preparePage(services: Services, peer: PeerView, text: string): Promise<PreparedPage> {
  const fed = federationOf(services);
  const page = fed.verifier.splitExportPage(text);
  const envelopes = page.events.map((e) => {
    try {
      return fed.verifier.parseEnvelope(e.text);
    } catch {
      return undefined;
    }
  });
  // Each origin's keys as registered (the peer's own, another registered peer's) or pinned (an origin
  // known through a relay); a blocked peer's events are refused by the import, so none are checked.
  const keysOf = new Map<string, readonly { keyId: string; publicKey: string }[]>();
  for (const e of envelopes) {
    if (!e || keysOf.has(e.origin)) continue;
    const asPeer = e.origin === peer.peerId ? peer : await fed.read.peer(e.origin);
    keysOf.set(
      e.origin,
      asPeer ? (asPeer.blocked ? [] : asPeer.keys) : ((await fed.read.relayOrigin(e.origin))?.keys ?? []),
    );
  }
  const items = envelopes.flatMap((envelope) => {
    const key = envelope && keysOf.get(envelope.origin)!.find((k) => k.keyId === envelope.keyId);
    return key ? [{ envelope: envelope!, publicKey: key.publicKey }] : [];
  });
  const verifying = fed.verifier.verifyEnvelopes(items, { remember: true });
  const presealed = await sealBindingsAhead(services, envelopes);
  await verifying;
  return { ...page, envelopes, presealed };
}

async function sealBindingsAhead(
  services: Services,
  envelopes: readonly (Envelope | undefined)[],
): Promise<Map<string, PresealedBinding>> {
  const out = new Map<string, PresealedBinding>();
  const instance = await services.read.instance.get();
  if (!instance) return out;
  const bindings: { key: string; localAgentId: string; origin: string; remoteAgentId: string }[] = [];
  const keys = new Set<string>();
  for (const e of envelopes) {
    if (e?.type !== 'agent.created') continue;
    const remoteAgentId = (e.data as Partial<EventData<'agent.created'>>).agentId;
    if (typeof remoteAgentId !== 'string' || !remoteAgentId) continue;
    const key = bindingKey(e.origin, remoteAgentId);
    if (keys.has(key)) continue;
    keys.add(key);
    bindings.push({ key, localAgentId: services.ids.entityId(), origin: e.origin, remoteAgentId });
  }
  if (bindings.length === 0) return out;
  const streams = await sealEvents(
    bindings.map((b) => ({
      stream: agentStream(b.localAgentId),
      type: 'agent.materialized',
      data: { agentId: b.localAgentId, origin: b.origin, remoteAgentId: b.remoteAgentId },
    })),
    new Map(bindings.map((b) => [agentStream(b.localAgentId), 0])),
    {
      signer: services.signer,
      ids: services.ids,
      actorId: instance.primaryAgentId,
      occurredAt: services.clock.now().toISOString(),
    },
  );
  // One new stream per binding, in order.
  bindings.forEach((b, i) => out.set(b.key, { localAgentId: b.localAgentId, sealed: streams[i]! }));
  return out;
}
