// Step 4 of an import: the signatures, verified concurrently on the bytes received (the CPU-bound part).
import { DomainError } from '@tributary/domain';
import type { Verifier } from '../ports/federation.js';
import type { Verified } from './batch.js';
import type { BatchResults } from './results.js';

export async function verifySignatures(
  verifier: Verifier,
  candidates: readonly Verified[],
  results: BatchResults,
): Promise<Verified[]> {
  const verdicts = await verifier.verifyEnvelopes(
    candidates.map((c) => ({ envelope: c.envelope, publicKey: c.publicKey })),
  );
  return candidates.filter((c, i) => {
    if (verdicts[i]) return true;
    results.reject(
      c.index,
      new DomainError('envelope.bad_signature', 'invalid', 'the event signature does not verify'),
    );
    return false;
  });
}
