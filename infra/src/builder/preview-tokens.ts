// Preview URL tokens: `<siteId>.<versionId>.<expiresAt>.<mac>`, the MAC an HMAC-SHA256 with a key derived
// (HKDF) from the instance's signing key, so only this instance can make one, every process of it agrees,
// and it needs no secret of its own. Tokens are short-lived and name one version; nothing is stored.
import { createHmac, hkdfSync, timingSafeEqual, type KeyObject } from 'node:crypto';
import type { PreviewClaims, PreviewTokens } from '@tributary/services';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const MAC = /^[A-Za-z0-9_-]{43}$/;

/** The HMAC key of preview tokens: HKDF-SHA256 of the instance's private key, for this use only. */
export function previewKeyFrom(privateKey: KeyObject): Buffer {
  const ikm = privateKey.export({ format: 'der', type: 'pkcs8' });
  return Buffer.from(hkdfSync('sha256', ikm, 'tributary', 'builder preview token v1', 32));
}

export function createPreviewTokens(key: Uint8Array, lifetimeSeconds: number): PreviewTokens {
  const macOf = (c: PreviewClaims) =>
    createHmac('sha256', key)
      .update(`tributary-preview-v1\n${c.siteId}\n${c.versionId}\n${c.expiresAt}`)
      .digest('base64url');
  return {
    lifetimeSeconds,
    issue(claims) {
      if (
        !UUID.test(claims.siteId) ||
        !UUID.test(claims.versionId) ||
        !Number.isSafeInteger(claims.expiresAt)
      )
        throw new TypeError('a preview token names a site and a version by UUID, and an expiry in seconds');
      return `${claims.siteId}.${claims.versionId}.${claims.expiresAt}.${macOf(claims)}`;
    },
    verify(token) {
      const parts = token.split('.');
      if (parts.length !== 4) return undefined;
      const [siteId, versionId, expires, mac] = parts as [string, string, string, string];
      if (!UUID.test(siteId) || !UUID.test(versionId) || !/^[0-9]{1,15}$/.test(expires) || !MAC.test(mac))
        return undefined;
      const claims = { siteId, versionId, expiresAt: Number(expires) };
      const expected = Buffer.from(macOf(claims));
      const given = Buffer.from(mac);
      return timingSafeEqual(expected, given) ? claims : undefined;
    },
  };
}
