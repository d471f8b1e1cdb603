// A pulled page made ready for its import: split on the bytes received, each event parsed, and each
// signature checked under the key its origin has here now, the verifier remembering the good ones
// (docs/federation.md#pull). A pull prepares the next page as soon as it arrives, while the page before
// it is still being imported: the CPU-bound part of one page overlaps the database work of the other.
//
// Nothing here decides anything. The import still applies every rule to every event and asks the
// verifier about each signature under the key it picks itself (its own reading of the keys, rotations
// announced in the batch included); an answer comes from memory only for that same frozen envelope and
// that same key, and any other is verified then.
import type { Envelope } from '@tributary/domain';
import type { FederationOperationServices } from './federation-operation.js';
import type { ExportedPage, PeerView } from './ports/federation.js';

export interface PreparedPage extends ExportedPage {
  /** Each event's envelope, parsed; undefined where parsing failed (the import parses it again to say why). */
  envelopes: (Envelope | undefined)[];
}

export async function preparePage(
  services: FederationOperationServices,
  peer: PeerView,
  text: string,
): Promise<PreparedPage> {
  const fed = services.federation;
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
  await fed.verifier.verifyEnvelopes(items, { remember: true });
  return { ...page, envelopes };
}
