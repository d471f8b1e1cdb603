// Step 3 of an import: the key each event must verify under — the origin's key valid when it occurred,
// as known, then as earlier events of the batch rotated or revoked it
// (docs/federation.md#a-peers-own-key-changes).
import { DomainError, INSTANCE_STREAM, originKeyFor, type Envelope, type EventData } from '@tributary/domain';
import type { Candidate, Verified } from './batch.js';
import type { KnownKeys } from './origin-keys.js';
import type { BatchResults } from './results.js';

/** An origin's key as this batch sees it: as known, then as earlier events of the batch announced. */
interface BatchKey {
  keyId: string;
  publicKey: string;
  validFrom: string;
  validUntil: string | null;
  revokedAfter?: string | null | undefined;
  introducedBy?: number | undefined;
}

/** Each candidate with the public key to verify it under; one without a valid key is refused. */
export function keyEachEvent(
  keysOf: ReadonlyMap<string, KnownKeys>,
  parsed: readonly Candidate[],
  results: BatchResults,
): Verified[] {
  const batchKeys = new Map(
    [...keysOf].map(([origin, k]) => [
      origin,
      new Map<string, BatchKey>(k.keys.map((x) => [x.keyId, { ...x }])),
    ]),
  );
  const candidates: Verified[] = [];
  for (const c of parsed) {
    const known = keysOf.get(c.envelope.origin)!;
    const keys = batchKeys.get(c.envelope.origin)!;
    const key = batchKeyFor(keys, c.envelope);
    if (key === null) {
      results.reject(
        c.index,
        known.relayed
          ? (known.relayed.failure ??
              new DomainError(
                'federation.origin_key_unknown',
                'invalid',
                `no key ${c.envelope.keyId} is known for ${c.envelope.origin}`,
              ))
          : new DomainError(
              'federation.unknown_key',
              'invalid',
              `no key ${c.envelope.keyId} is registered for this peer`,
            ),
      );
      continue;
    }
    if ('refusal' in key) {
      results.reject(c.index, key.refusal);
      continue;
    }
    if (c.envelope.stream === INSTANCE_STREAM)
      try {
        announceKey(keys, c.envelope, key, c.index);
      } catch (e) {
        results.reject(c.index, e);
        continue;
      }
    candidates.push({ ...c, publicKey: key.publicKey, introducedBy: key.introducedBy });
  }
  return candidates;
}

/** The origin's key valid when the event occurred (null when none is known; see originKeyFor). */
function batchKeyFor(
  keys: ReadonlyMap<string, BatchKey>,
  e: Envelope,
): BatchKey | { refusal: DomainError } | null {
  const key = keys.get(e.keyId);
  if (!key) return null;
  const valid = originKeyFor([key], e.keyId, e.occurredAt);
  return valid !== null && 'refusal' in valid ? valid : key;
}

/**
 * A rotation or revocation in the origin's `instance` stream, signed by `signedWith`: the batch's view of
 * the origin's keys follows it. A rotation must be signed by the origin's current key (one already
 * rotated out cannot name a second successor: that is what a stolen old key would try), and a
 * revocation by a key newer than the one it revokes (an old key cannot disown its successor).
 */
function announceKey(keys: Map<string, BatchKey>, e: Envelope, signedWith: BatchKey, index: number): void {
  const bad = (message: string) => new DomainError('federation.bad_key_announcement', 'invalid', message);
  if (e.type === 'instance.key_rotated') {
    const d = e.data as EventData<'instance.key_rotated'>;
    if (keys.has(d.keyId)) return; // known already (this announcement again, or registered by hand)
    if (signedWith.validUntil !== null || d.previousKeyId !== signedWith.keyId)
      throw bad('a key rotation must be signed by the key it retires, while that key is current');
    const previousValidUntil = Date.parse(d.previousValidUntil);
    if (Number.isNaN(previousValidUntil) || Number.isNaN(Date.parse(d.validFrom)))
      throw bad('a key rotation names its times as RFC 3339');
    keys.set(signedWith.keyId, { ...signedWith, validUntil: new Date(previousValidUntil).toISOString() });
    keys.set(d.keyId, {
      keyId: d.keyId,
      publicKey: d.publicKey,
      validFrom: d.validFrom,
      validUntil: null,
      revokedAfter: null,
      introducedBy: index,
    });
  } else if (e.type === 'instance.key_revoked') {
    const d = e.data as EventData<'instance.key_revoked'>;
    const revoked = keys.get(d.keyId);
    const after = Date.parse(d.revokedAfter);
    if (Number.isNaN(after)) throw bad('a key revocation names its time as RFC 3339');
    if (revoked && Date.parse(revoked.validFrom) >= Date.parse(signedWith.validFrom))
      throw bad('a key can only be revoked by a key that came after it');
    if (revoked && (!revoked.revokedAfter || after < Date.parse(revoked.revokedAfter)))
      keys.set(d.keyId, { ...revoked, revokedAfter: new Date(after).toISOString() });
  }
}
