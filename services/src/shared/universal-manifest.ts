// Signing of Universal Manifest v0.2 documents with the instance key, shared by the instance's own
// manifest (federation/manifest.ts), the per-entity manifests (manifests/) and the traveller
// presentations (spatial/): Ed25519 over the RFC 8785 form of everything but `signature`, like the UM
// reference signer.
import { MANIFEST_LIFETIME_DAYS } from '@tributary/domain';
import type { DocumentSigner } from '../ports/signer.js';
import type { Requirement } from '../pipeline/operation.js';

export const UM_CONTEXT = 'https://universalmanifest.net/ns/universal-manifest/v0.2/schema.jsonld';

/** Issuance is stamped to the second, so the signed text has one spelling of it. */
export const stampSecond = (at: Date) => new Date(Math.floor(at.getTime() / 1000) * 1000).toISOString();
/** 30 days (MANIFEST_LIFETIME_DAYS) after issuance, stamped like it. */
export const manifestExpiryOf = (at: Date) =>
  new Date(Math.floor(at.getTime() / 1000) * 1000 + MANIFEST_LIFETIME_DAYS * 86_400_000).toISOString();

/** Where the instance's signed manifest (and so its keys) are: the `keyRef` of every signature. */
export const instanceManifestUrl = (baseUrl: string) => `${baseUrl}/api/federation/manifest`;

/**
 * What an operation that signs or verifies with the instance's document signer declares: where the
 * federation surface (which holds the signer) is not composed it answers `federation.unavailable`.
 */
export const documentSignerComposed: Requirement<'federationSurface'> = {
  slices: ['federationSurface'],
  code: 'federation.unavailable',
  message: 'federation is not configured here',
};

/** The signed universal manifest: `signature.value` over the RFC 8785 form of everything but `signature`. */
export function signUniversalManifest(
  unsigned: Record<string, unknown>,
  documents: Pick<DocumentSigner, 'sign' | 'keyId' | 'publicKeySpkiBase64'>,
  baseUrl: string,
): Record<string, unknown> {
  return {
    ...unsigned,
    signature: {
      algorithm: 'Ed25519',
      canonicalization: 'JCS-RFC8785',
      keyRef: `${instanceManifestUrl(baseUrl)}#${documents.keyId}`,
      created: unsigned.issuedAt,
      publicKeySpkiB64: documents.publicKeySpkiBase64,
      value: documents.sign(unsigned),
    },
  };
}
