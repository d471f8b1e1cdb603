// Reads another instance's signed manifest (GET /api/federation/manifest) for `tributary peers add
// --from`: what the operator would otherwise copy by hand (id, role, base URL, current key). The
// signature is checked against the key the manifest itself names — that proves the document is whole,
// not who published it: the operator confirms the key id with the peer's operator (or pins it with
// --expect-key-id), which is what makes the key trusted. The GET goes through the outbound client: the
// address policy applies, and a redirect is refused (`outbound.redirect_refused`) — the manifest must be
// served at the base URL it names anyway.
import type { OutboundHttp } from '@tributary/adapters';
import { DomainError, isDomainError } from '@tributary/domain';
import { createPublicKey, verify } from 'node:crypto';
import { canonicalJson } from '../signing/canonical-json.js';
import { parseStrictJson } from '../signing/strict-json.js';

interface PeerManifestFacts {
  instanceId: string;
  role: string;
  name: string;
  baseUrl: string;
  publicKey: string;
  keyId: string;
  /** The earlier keys the manifest lists, oldest first, with their windows (see below). */
  previousKeys: PreviousKey[];
}

interface PreviousKey {
  keyId: string;
  publicKey: string;
  validFrom: string;
  validUntil: string;
  revokedAfter?: string;
}

const isTime = (v: unknown): v is string => typeof v === 'string' && !Number.isNaN(Date.parse(v));

/**
 * The manifest's earlier keys. `keys` is under the current key's signature, so the key we are asked to
 * trust vouches for them: a key that is not in a manifest the current key signed never verifies anything
 * here (federation.unknown_key). Each must be rotated out (a window's end) and well-formed; that each key
 * id is its public key's is checked by register_peer.
 */
function previousKeysOf(keys: Record<string, unknown>[], currentKeyId: unknown): PreviousKey[] {
  return keys
    .filter((k) => k.keyId !== currentKeyId)
    .map((k) => {
      if (typeof k.keyId !== 'string' || typeof k.publicKey !== 'string' || !isTime(k.validFrom))
        throw bad('a key the manifest lists lacks its key id, public key or valid-from time');
      if (!isTime(k.validUntil))
        throw bad(`the manifest lists ${k.keyId} as current beside ${String(currentKeyId)}`);
      if (k.revokedAfter !== undefined && k.revokedAfter !== null && !isTime(k.revokedAfter))
        throw bad(`the manifest names a revocation time for ${k.keyId} that is not RFC 3339`);
      return {
        keyId: k.keyId,
        publicKey: k.publicKey,
        validFrom: k.validFrom,
        validUntil: k.validUntil,
        ...(isTime(k.revokedAfter) && { revokedAfter: k.revokedAfter }),
      };
    });
}

const bad = (message: string) => new DomainError('federation.bad_manifest', 'invalid', message);

/** A manifest is a small document: larger answers are cut off, slow ones given up. */
const MANIFEST_FETCH_LIMITS = { maxBytes: 256 * 1024, timeoutMs: 10_000 };

export async function fetchPeerManifest(
  outbound: OutboundHttp,
  baseUrl: string,
  now: Date = new Date(),
): Promise<PeerManifestFacts> {
  const url = `${baseUrl.replace(/\/+$/, '')}/api/federation/manifest`;
  let res;
  try {
    res = await outbound.request(url, {
      headers: { accept: 'application/json' },
      timeoutMs: MANIFEST_FETCH_LIMITS.timeoutMs,
      maxResponseBytes: MANIFEST_FETCH_LIMITS.maxBytes,
    });
  } catch (e) {
    if (isDomainError(e) && e.code === 'outbound.unreachable')
      throw new DomainError(
        'federation.peer_unreachable',
        'unavailable',
        `could not reach the peer at ${url}: ${String(e.details?.reason)}`,
      );
    throw e;
  }
  if (res.status < 200 || res.status > 299) throw bad(`${url} answered ${res.status}`);
  const text = res.text();
  const m = parseStrictJson(text) as Record<string, unknown>;
  const keys = Array.isArray(m.keys) ? (m.keys as Record<string, unknown>[]) : [];
  const signing = keys.find((k) => k.keyId === m.keyId);
  if (typeof m.instanceId !== 'string' || typeof m.role !== 'string' || typeof m.baseUrl !== 'string')
    throw bad('the manifest lacks instanceId, role or baseUrl');
  if (!signing || typeof signing.publicKey !== 'string' || signing.validUntil)
    throw bad('the manifest is not signed by a current key it lists');
  if (typeof m.sig !== 'string') throw bad('the manifest is not signed');
  // `signatures` (the overlap's signatures by previous keys) is beside `sig`, not under it.
  const { sig, signatures: _signatures, ...unsigned } = m;
  const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: signing.publicKey }, format: 'jwk' });
  if (!verify(null, Buffer.from(canonicalJson(unsigned), 'utf8'), key, Buffer.from(sig, 'base64url')))
    throw bad('the manifest signature does not verify');
  if (typeof m.expiresAt !== 'string' || Date.parse(m.expiresAt) < now.getTime())
    throw bad('the manifest has expired');
  // The address we will call must be the one the peer signs for (signed requests cover the target URI).
  if (m.baseUrl.replace(/\/+$/, '') !== baseUrl.replace(/\/+$/, ''))
    throw bad(`the manifest names ${m.baseUrl} as its base URL, not ${baseUrl}`);
  if (keys.length > 100) throw bad('the manifest lists more than 100 keys');
  return {
    instanceId: m.instanceId,
    role: m.role,
    name: typeof m.name === 'string' ? m.name : m.instanceId,
    baseUrl: m.baseUrl,
    publicKey: signing.publicKey,
    keyId: String(signing.keyId),
    previousKeys: previousKeysOf(keys, m.keyId),
  };
}
