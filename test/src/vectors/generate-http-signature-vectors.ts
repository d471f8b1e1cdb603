// Generates test/vectors/http-signature-vectors.json: golden RFC 9421 request signatures in the profile
// every server-to-server request uses (docs/federation.md), under RFC 9421's own Ed25519 test key
// (Appendix B.1.4, `test-key-ed25519`; public knowledge, tests only). The vectors test rebuilds the file
// and compares, so it cannot drift from the code.
// Run: node --import tsx test/src/vectors/generate-http-signature-vectors.ts
import {
  contentDigest,
  SIGNATURE_ALGORITHM,
  signatureBase,
  signatureHeaders,
  signatureInputList,
} from '@tributary/adapters';
import { createPrivateKey, createPublicKey, sign, type KeyObject } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const HTTP_VECTORS_PATH = fileURLToPath(
  new URL('../../vectors/http-signature-vectors.json', import.meta.url),
);

/** RFC 9421 Appendix B.1.4: the key and the id the RFC gives it, so every vector's keyid names this key. */
const RFC9421_TEST_KEY_ID = 'test-key-ed25519';
const RFC9421_TEST_KEY_PEM =
  '-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIJ+DYvh6SEqVTm50DFtMDoQikTmiCqirVv9mWG9qfSnF\n-----END PRIVATE KEY-----\n';

function httpTestKey(): { privateKey: KeyObject; publicKey: KeyObject } {
  const privateKey = createPrivateKey(RFC9421_TEST_KEY_PEM);
  return { privateKey, publicKey: createPublicKey(privateKey) };
}

interface HttpVectorInput {
  method: string;
  targetUri: string;
  body: string;
  created: number;
  nonce: string;
  keyid: string;
}

interface HttpVector {
  name: string;
  input: HttpVectorInput;
  contentDigest: string;
  signatureBase: string;
  signatureBaseHex: string;
  headers: { 'content-digest': string; 'signature-input': string; signature: string };
}

export interface HttpVectorFile {
  description: string;
  /** The id every vector's keyid names: the key below, as RFC 9421 names it. */
  keyId: string;
  publicKey: string;
  privateKeyPem: string;
  vectors: HttpVector[];
}

const INPUTS: { name: string; input: HttpVectorInput }[] = [
  {
    name: 'import batch',
    input: {
      method: 'POST',
      targetUri: 'https://global.example/api/federation/events/import',
      body: '{"events":[]}',
      created: 1767225600,
      nonce: 'b3k2pp5k7z-50gnwp4fn9w',
      keyid: RFC9421_TEST_KEY_ID,
    },
  },
  {
    name: 'export query, port and path prefix, non-ASCII body',
    input: {
      method: 'POST',
      targetUri: 'http://127.0.0.1:8443/tributary/api/federation/events/export',
      body: '{"since":42,"limit":100,"note":"Zürich ✓"}',
      created: 1767225900,
      nonce: 'AAAAAAAAAAAAAAAAAAAAAA',
      keyid: RFC9421_TEST_KEY_ID,
    },
  },
];

export function buildHttpVectors(): HttpVectorFile {
  const { privateKey, publicKey } = httpTestKey();
  const vectors = INPUTS.map(({ name, input }) => {
    const digest = contentDigest(Buffer.from(input.body, 'utf8'));
    const params = {
      created: input.created,
      nonce: input.nonce,
      keyid: input.keyid,
      alg: SIGNATURE_ALGORITHM,
    };
    const parts = { method: input.method, targetUri: input.targetUri, contentDigest: digest };
    const base = signatureBase(parts, signatureInputList(params));
    return {
      name,
      input,
      contentDigest: digest,
      signatureBase: base,
      signatureBaseHex: Buffer.from(base, 'utf8').toString('hex'),
      headers: signatureHeaders(parts, params, (b) => sign(null, b, privateKey)),
    };
  });
  return {
    description:
      'Golden vectors for Tributary server-to-server request signatures (RFC 9421 HTTP Message Signatures, Ed25519; docs/federation.md). Covered components, in order: "@method", "@target-uri", "content-digest"; parameters, in order: created, nonce, keyid, alg="ed25519". content-digest is RFC 9530 sha-256 of the body bytes (UTF-8 of input.body). signatureBase is exactly the signed text (UTF-8; hex in signatureBaseHex): one `"<component>": <value>` line per component, then `"@signature-params": <inner list>`, LF-separated, no trailing LF. The key is RFC 9421 Appendix B.1.4 test-key-ed25519 (public; tests only), and every keyid names it by that id (keyId); publicKey is its raw 32 bytes as base64url. Ed25519 is deterministic, so the Signature fields are exact. Regenerate with: node --import tsx test/src/vectors/generate-http-signature-vectors.ts',
    keyId: RFC9421_TEST_KEY_ID,
    publicKey: publicKey.export({ format: 'jwk' }).x!,
    privateKeyPem: RFC9421_TEST_KEY_PEM,
    vectors,
  };
}

export const renderHttpVectors = (file: HttpVectorFile) => `${JSON.stringify(file, null, 2)}\n`;

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  writeFileSync(HTTP_VECTORS_PATH, renderHttpVectors(buildHttpVectors()));
  console.error(`wrote ${HTTP_VECTORS_PATH}`);
}
