// The OriginManifestSource port: another instance's signed manifest (GET …/api/federation/manifest, or a
// relay's copy of it), fetched through the outbound client (address policy, no redirects, time and size
// limits) and checked: strict JSON, the shape, not expired, and which of the keys it lists signed it.
// Whether those keys are to be believed is the caller's decision (originKeyAdoption): a manifest only
// proves that whoever holds the signing key wrote it.
import type { OutboundHttp } from '@tributary/adapters';
import type { OriginManifestSource } from '@tributary/services';
import { DomainError, isDomainError, type OriginKey, type OriginManifest } from '@tributary/domain';
import { createPublicKey, verify } from 'node:crypto';
import { canonicalJson } from '../signing/canonical-json.js';
import { parseStrictJson } from '../signing/strict-json.js';

const bad = (message: string) => new DomainError('federation.bad_manifest', 'invalid', message);

/** A manifest, or a page of an origin's public query, is a small document. */
const FETCH_LIMITS = { maxBytes: 1024 * 1024, timeoutMs: 10_000 };
const ROLES = new Set(['global', 'person', 'group', 'locale', 'region']);

export function createOriginManifestSource(outbound: OutboundHttp, now: () => Date): OriginManifestSource {
  const get = async (url: string) => {
    let res;
    try {
      res = await outbound.request(url, {
        headers: { accept: 'application/json' },
        timeoutMs: FETCH_LIMITS.timeoutMs,
        maxResponseBytes: FETCH_LIMITS.maxBytes,
      });
    } catch (e) {
      if (isDomainError(e) && e.code === 'outbound.unreachable')
        throw new DomainError(
          'federation.peer_unreachable',
          'unavailable',
          `${url}: ${String(e.details?.reason)}`,
        );
      throw e;
    }
    if (res.status < 200 || res.status > 299)
      throw new DomainError('federation.peer_unreachable', 'unavailable', `${url} answered ${res.status}`);
    return res.text();
  };
  const source: OriginManifestSource = {
    async fetch(url) {
      const text = await get(url);
      return { text, manifest: source.read(text) };
    },
    read(text) {
      let m: Record<string, unknown>;
      try {
        m = parseStrictJson(text) as Record<string, unknown>;
      } catch {
        throw bad('the manifest is not strict JSON');
      }
      if (!m || typeof m !== 'object' || Array.isArray(m)) throw bad('the manifest is not an object');
      if (m.type !== 'tributary.instance_manifest') throw bad('not an instance manifest');
      const { instanceId, role, name, baseUrl, expiresAt, keyId, sig } = m;
      if (typeof instanceId !== 'string' || typeof role !== 'string' || !ROLES.has(role))
        throw bad('the manifest lacks instanceId or a role');
      if (typeof baseUrl !== 'string' || !/^https?:\/\//.test(baseUrl))
        throw bad('the manifest lacks baseUrl');
      if (typeof expiresAt !== 'string' || !(Date.parse(expiresAt) >= now().getTime()))
        throw bad('the manifest has expired');
      const keys: OriginKey[] = [];
      for (const k of Array.isArray(m.keys) ? (m.keys as Record<string, unknown>[]) : []) {
        if (
          !k ||
          typeof k.keyId !== 'string' ||
          typeof k.publicKey !== 'string' ||
          !/^[A-Za-z0-9_-]{43}$/.test(k.publicKey) ||
          typeof k.validFrom !== 'string' ||
          !(k.validUntil === null || typeof k.validUntil === 'string') ||
          !(k.revokedAfter === undefined || typeof k.revokedAfter === 'string')
        )
          throw bad('a key of the manifest is malformed');
        keys.push({
          keyId: k.keyId,
          publicKey: k.publicKey,
          validFrom: k.validFrom,
          validUntil: k.validUntil,
          ...(typeof k.revokedAfter === 'string' && { revokedAfter: k.revokedAfter }),
        });
      }
      if (keys.length === 0) throw bad('the manifest lists no key');
      // Signatures: `sig` by the key `keyId`, and during a rotation's overlap a list (one per key still
      // valid, the previous ones included; `signatures`, which docs/manifests.md also spells `sigs`),
      // each over the RFC 8785 form of everything but the signatures.
      const { sig: _sig, sigs, signatures, ...rest } = m;
      const unsigned = canonicalJson(rest);
      const signed: { keyId: unknown; sig: unknown }[] = [{ keyId, sig }];
      for (const list of [sigs, signatures])
        if (Array.isArray(list)) signed.push(...(list as { keyId: unknown; sig: unknown }[]));
      const signedBy: string[] = [];
      for (const s of signed) {
        const key = keys.find((k) => k.keyId === s?.keyId);
        if (!key || typeof s.sig !== 'string') continue;
        try {
          const pub = createPublicKey({
            key: { kty: 'OKP', crv: 'Ed25519', x: key.publicKey },
            format: 'jwk',
          });
          if (verify(null, Buffer.from(unsigned, 'utf8'), pub, Buffer.from(s.sig, 'base64url')))
            signedBy.push(key.keyId);
        } catch {
          // a key that is not one: no signature by it
        }
      }
      const manifest: OriginManifest = {
        instanceId,
        role,
        name: typeof name === 'string' ? name : instanceId,
        baseUrl: baseUrl.replace(/\/+$/, ''),
        keys,
        signedBy: [...new Set(signedBy)],
      };
      return manifest;
    },
    async getJson(url) {
      const text = await get(url);
      try {
        return JSON.parse(text) as unknown;
      } catch {
        throw new DomainError('federation.bad_export_page', 'invalid', `${url} did not answer JSON`);
      }
    },
  };
  return source;
}
