// After a restore from a backup (docs/operations.md#backup-and-restore): the events this instance wrote
// after the backup was taken are gone from its log, but its peers may hold the public ones. Before the
// instance writes anything, it asks every peer for its own events that peer holds, verifies each under
// its own keys, and appends those it lacks back at their own stream versions — so no version a peer has
// seen is ever used again for another event. It also learns how far each peer pulled its feed, so the
// feed's next numbers start past anything a peer has already passed.
import { DomainError, isDomainError, type Envelope } from '@tributary/domain';
import type { FederationWithSurfaceServices } from './federation-operation.js';

const PAGE = 500;

export interface RecoveryReport {
  peers: { peerId: string; held: number; error?: string }[];
  /** Our events a peer held and we lacked, appended back. */
  recovered: number;
  /** Streams where a lost event no peer holds sits before one a peer holds: from that version on, fenced. */
  fenced: { stream: string; fromVersion: number }[];
  /** The highest of our feed sequences any peer has pulled. */
  pulledUpTo: number;
}

export async function recoverOwnEvents(
  services: FederationWithSurfaceServices,
  o: {
    /** Called before anything is appended, with the highest feed sequence a peer has pulled. */
    beforeAppend: (pulledUpTo: number) => Promise<void>;
  },
): Promise<RecoveryReport> {
  const fed = services.federation;
  if (!fed.client) throw new DomainError('federation.unavailable', 'unavailable', 'federation is off');
  const instance = await services.instance.read.get();
  if (!instance) throw new DomainError('instance.not_initialized', 'unavailable', 'the instance is starting');
  const keys = new Map(
    (await services.federationSurface.read.instanceKeys()).map((k) => [k.keyId, k.publicKey]),
  );
  const report: RecoveryReport = { peers: [], recovered: 0, fenced: [], pulledUpTo: 0 };
  const found = new Map<string, { envelope: Envelope; text: string }>(); // by id, in the order first held
  for (const peer of (await fed.read.peers()).filter((p) => !p.blocked)) {
    const entry: RecoveryReport['peers'][number] = { peerId: peer.peerId, held: 0 };
    report.peers.push(entry);
    try {
      let after = 0;
      for (;;) {
        const page = await fed.client.heldEvents(peer.baseUrl, { after, limit: PAGE });
        report.pulledUpTo = Math.max(report.pulledUpTo, page.pulledUpTo);
        const candidates: { envelope: Envelope; text: string; publicKey: string }[] = [];
        for (const e of page.events) {
          // Our events are stored as their canonical text, which JSON.stringify of the parse reproduces.
          const text = JSON.stringify(e);
          const envelope = fed.verifier.parseEnvelope(text);
          const publicKey = keys.get(envelope.keyId);
          if (envelope.origin !== instance.instanceId || !publicKey || found.has(envelope.id)) continue;
          candidates.push({ envelope, text, publicKey });
        }
        const verdicts = await fed.verifier.verifyEnvelopes(candidates);
        candidates.forEach((c, i) => {
          if (verdicts[i]) found.set(c.envelope.id, { envelope: c.envelope, text: c.text });
        });
        entry.held += page.events.length;
        if (page.next === null) break;
        after = page.next;
      }
    } catch (e) {
      entry.error = isDomainError(e) ? `${e.code}: ${e.message}` : String(e);
    }
  }
  await o.beforeAppend(report.pulledUpTo);

  // Each stream's events go back in version order, each right after the version before it.
  const byStream = new Map<string, { envelope: Envelope; text: string }[]>();
  for (const f of found.values()) {
    const list = byStream.get(f.envelope.stream) ?? [];
    list.push(f);
    byStream.set(f.envelope.stream, list);
  }
  for (const [stream, list] of byStream) {
    list.sort((a, b) => a.envelope.streamVersion - b.envelope.streamVersion);
    const held = await services.store.readStream(stream);
    const ids = new Set(held.map((e) => e.envelope.id));
    let head = held.length;
    for (const f of list) {
      if (ids.has(f.envelope.id)) continue;
      if (f.envelope.streamVersion !== head + 1) {
        report.fenced.push({ stream, fromVersion: head + 1 });
        break;
      }
      await services.store.append([{ stream, expectedVersion: head, envelopes: [f] }]);
      head++;
      report.recovered++;
    }
  }
  return report;
}
