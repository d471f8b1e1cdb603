// Step 1 of an import: each text parsed strictly and held to the import rules (the sender may send it,
// inside the time window, not ours) and, from a relay, to this instance's choice of origins it takes.
import { DomainError, followsOrigin, importRefusal } from '@tributary/domain';
import type { FederationOperationServices } from '../federation-operation.js';
import type { Candidate, ImportOptions } from './batch.js';
import type { BatchResults } from './results.js';

export async function parseEvents(
  services: FederationOperationServices,
  batch: { senderId: string; relay: boolean; self: string; now: Date },
  texts: readonly string[],
  options: ImportOptions,
  results: BatchResults,
): Promise<Candidate[]> {
  const fed = services.federation;
  const parsed: Candidate[] = [];
  const following = batch.relay ? (await fed.read.relayFollowing()).following : null;
  const followed = following?.mode === 'people' ? await fed.read.followedOrigins() : [];
  texts.forEach((text, index) => {
    try {
      const envelope = options.parsed?.[index] ?? fed.verifier.parseEnvelope(text);
      results.identify(index, envelope.id);
      const refusal = importRefusal(envelope, {
        peerId: batch.senderId,
        relay: batch.relay,
        self: batch.self,
        now: batch.now,
        allowHistorical: options.allowHistorical ?? false,
      });
      if (refusal) throw refusal;
      if (
        following &&
        envelope.origin !== batch.senderId &&
        !followsOrigin(following, envelope.origin, followed)
      )
        throw new DomainError(
          'federation.origin_not_followed',
          'invalid',
          `${envelope.origin} is not followed here`,
          {
            origin: envelope.origin,
          },
        );
      parsed.push({ index, text, envelope });
    } catch (e) {
      results.reject(index, e);
    }
  });
  return parsed;
}
