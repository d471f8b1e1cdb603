// Generates test/vectors/manifest-vectors.json: golden signed manifests (GET /api/federation/manifest and
// /.well-known/universal-manifest.json) under the fixed test key, built by the same code the routes use.
// Run: node --import tsx test/src/vectors/generate-manifest-vectors.ts
// The vectors test rebuilds them and compares, so the file cannot drift from the code.
import { writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { canonicalJson, createDocumentSigner, keyIdFor } from '@tributary/infra';
import {
  signInstanceManifest,
  signUniversalManifest,
  unsignedInstanceManifest,
  unsignedUniversalManifest,
  type ManifestFacts,
} from '@tributary/services';
import { TEST_SEED, testSigningKey } from './generate-envelope-vectors.js';

export const MANIFEST_VECTORS_PATH = fileURLToPath(
  new URL('../../vectors/manifest-vectors.json', import.meta.url),
);

interface ManifestVector {
  name: 'instance-manifest' | 'universal-manifest';
  /** The exact bytes signed, as text: RFC 8785 form of the document without its signature member. */
  canonical: string;
  /** base64url Ed25519 signature of `canonical` (UTF-8). */
  sig: string;
  /** The document as served (JSON). */
  document: Record<string, unknown>;
}

export interface ManifestVectorFile {
  description: string;
  privateKeySeedHex: string;
  publicKey: string;
  keyId: string;
  vectors: ManifestVector[];
}

const DESCRIPTION =
  'Golden vectors for Tributary signed manifests (docs/federation.md). instance-manifest is what GET ' +
  '/api/federation/manifest serves: the signature `sig` is Ed25519 (RFC 8032, pure) over the UTF-8 bytes ' +
  'of the RFC 8785 (JCS) form of the manifest without "sig" (`canonical`). universal-manifest is what ' +
  '/.well-known/universal-manifest.json serves (Universal Manifest v0.2 shape): `signature.value` is the ' +
  'same kind of signature over the JCS form of the document without "signature". Both expire 30 days ' +
  'after issuedAt. The key is the test key (private seed bytes 0x00..0x1f; public, for tests only). ' +
  'Regenerate with: node --import tsx test/src/vectors/generate-manifest-vectors.ts';

const MANIFEST_FACTS: Omit<ManifestFacts, 'keyId' | 'keys'> = {
  instance: {
    instanceId: '0193a1b2-0000-4000-8000-0000000000f1',
    role: 'group',
    name: 'Alpha Collective',
    baseUrl: 'https://alpha.example',
  },
  globalUrl: 'https://global.example',
  issuedAt: new Date('2026-01-01T00:00:00.000Z'),
};

const RETIRED_KEY = '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo';

export function buildManifestVectors(): ManifestVectorFile {
  const documents = createDocumentSigner(testSigningKey());
  const facts: ManifestFacts = {
    ...MANIFEST_FACTS,
    keyId: documents.keyId,
    keys: [
      // A rotated-out key (RFC 8037's example public key) stays listed with its validity.
      {
        keyId: keyIdFor(Buffer.from(RETIRED_KEY, 'base64url')),
        publicKey: RETIRED_KEY,
        validFrom: '2025-01-01T00:00:00.000Z',
        validUntil: '2025-12-01T00:00:00.000Z',
        revokedAfter: null,
      },
      {
        keyId: documents.keyId,
        publicKey: documents.publicKey,
        validFrom: '2025-12-01T00:00:00.000Z',
        validUntil: null,
        revokedAfter: null,
      },
    ],
  };
  const instance = unsignedInstanceManifest(facts);
  const signedInstance = signInstanceManifest(instance, documents);
  const universal = unsignedUniversalManifest(facts);
  const signedUniversal = signUniversalManifest(universal, documents, facts.instance.baseUrl);
  return {
    description: DESCRIPTION,
    privateKeySeedHex: Buffer.from(TEST_SEED).toString('hex'),
    publicKey: documents.publicKey,
    keyId: documents.keyId,
    vectors: [
      {
        name: 'instance-manifest',
        canonical: canonicalJson(instance),
        sig: signedInstance.sig as string,
        document: signedInstance,
      },
      {
        name: 'universal-manifest',
        canonical: canonicalJson(universal),
        sig: (signedUniversal.signature as { value: string }).value,
        document: signedUniversal,
      },
    ],
  };
}

export const renderManifestVectors = (file: ManifestVectorFile) => `${JSON.stringify(file, null, 2)}\n`;

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  writeFileSync(MANIFEST_VECTORS_PATH, renderManifestVectors(buildManifestVectors()));
  console.error(`wrote ${MANIFEST_VECTORS_PATH}`);
}
