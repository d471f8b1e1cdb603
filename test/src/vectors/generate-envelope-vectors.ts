// Generates test/vectors/envelope-vectors.json: golden envelope signatures under a fixed test key
// (docs/architecture.md#envelope), so other implementations (and a second Ed25519 library in our tests) can check
// canonical bytes and signatures. Run: node --import tsx test/src/vectors/generate-envelope-vectors.ts
// The vectors test rebuilds them and compares, so the file cannot drift from the code.
import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { UnsignedEnvelope } from '@tributary/domain';
import {
  canonicalJson,
  createEnvelopeSigner,
  keyIdFor,
  publicKeyBase64url,
  publicKeyRaw,
  signingInput,
} from '@tributary/infra';

export const VECTORS_PATH = fileURLToPath(new URL('../../vectors/envelope-vectors.json', import.meta.url));

/** The test key's private seed: bytes 0x00..0x1f. Public knowledge; never use it for anything real. */
export const TEST_SEED = Uint8Array.from({ length: 32 }, (_, i) => i);

/** PKCS#8 DER of an Ed25519 private key is this fixed prefix followed by the 32-byte seed (RFC 8410). */
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

export function testSigningKey(): { privateKey: KeyObject; publicKey: KeyObject } {
  const privateKey = createPrivateKey({
    key: Buffer.concat([PKCS8_ED25519_PREFIX, TEST_SEED]),
    format: 'der',
    type: 'pkcs8',
  });
  return { privateKey, publicKey: createPublicKey(privateKey) };
}

interface EnvelopeVector {
  name: string;
  input: UnsignedEnvelope;
  canonical: string;
  signingInputHex: string;
  sig: string;
  envelopeText: string;
}

export interface EnvelopeVectorFile {
  description: string;
  privateKeySeedHex: string;
  publicKey: string;
  keyId: string;
  vectors: EnvelopeVector[];
}

const ORIGIN = 'https://alpha.example';

const DESCRIPTION =
  'Golden vectors for Tributary signed envelopes (docs/architecture.md#envelope). The signature is Ed25519 (RFC 8032, ' +
  'pure, no prehash) under the test key whose private seed is privateKeySeedHex (bytes 0x00..0x1f; public, ' +
  'for tests only). What is signed: the UTF-8 bytes of the RFC 8785 (JCS) canonical JSON of the whole ' +
  'envelope except "sig" (`canonical`; hex in `signingInputHex`). `sig` is the 64-byte signature as ' +
  'base64url without padding; `envelopeText` is the canonical JSON of the envelope including "sig", as ' +
  'stored. publicKey is the raw 32-byte key as base64url; keyId is "ed25519:" + base64url of the first ' +
  '16 bytes of SHA-256 of the raw public key. Verifiers reject duplicate keys and non-canonical numbers ' +
  '(anything not printed exactly as ECMAScript would, and integers beyond ±(2^53-1)). ' +
  'Regenerate with: node --import tsx test/src/vectors/generate-envelope-vectors.ts';

function inputs(keyId: string): Array<{ name: string; input: UnsignedEnvelope }> {
  const base = {
    v: 1 as const,
    origin: ORIGIN,
    keyId,
    actorId: '0193a1b2-0000-7000-8000-0000000000aa',
    occurredAt: '2025-01-02T03:04:05.678Z',
  };
  return [
    {
      name: 'ascii',
      input: {
        ...base,
        id: '0193a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a2b',
        type: 'site.published',
        stream: 'site-0193a1b2-0000-7000-8000-000000000001',
        streamVersion: 7,
        nonce: 'AAECAwQFBgcICQoLDA0ODw',
        data: { siteId: '0193a1b2-0000-7000-8000-000000000001', title: 'Hello, world', visibility: 'public' },
      },
    },
    {
      name: 'unicode-and-escapes',
      input: {
        ...base,
        id: '0193a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a2c',
        type: 'site.renamed',
        stream: 'site-0193a1b2-0000-7000-8000-000000000001',
        streamVersion: 8,
        nonce: 'EBESExQVFhcYGRobHB0eHw',
        data: {
          title: 'Café 日本語 🌊 Ωmega',
          separators: 'line\u2028separator\u2029paragraph',
          escapes: 'quote " backslash \\ slash / tab \t newline \n cr \r nul \u0000 us \u001f del \u007f',
          html: '</script>&<>',
          // JCS sorts keys by UTF-16 code units: "😀" (D83D DE00) sorts before "ﬀ" (FB00), unlike code points.
          keys: { ﬀ: 'U+FB00', '😀': 'U+1F600', é: 'U+00E9', z: 'z', A: 'A', '': 'empty' },
        },
      },
    },
    {
      name: 'nested-key-order',
      input: {
        ...base,
        id: '0193a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a2d',
        type: 'agent.profile_updated',
        stream: 'agent-0193a1b2-0000-7000-8000-0000000000aa',
        streamVersion: 3,
        nonce: 'ICEiIyQlJicoKSorLC0uLw',
        data: {
          zeta: { y: [3, 2, 1], x: { b: true, a: false, c: null } },
          alpha: [{ z: 1, a: 2 }, [], {}, [[], [{}]]],
          Beta: 'upper case sorts first',
          _under: 'underscore sorts after upper case',
          a10: 'a10 sorts before a9',
          a9: 'a9',
        },
      },
    },
    {
      name: 'numbers',
      input: {
        ...base,
        id: '0193a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a2e',
        type: 'ledger.adjusted',
        stream: 'ledger-0193a1b2-0000-7000-8000-000000000002',
        streamVersion: 4294967297,
        nonce: 'MDEyMzQ1Njc4OTo7PD0-Pw',
        data: {
          zero: 0,
          one: 1,
          minusOne: -1,
          maxSafe: 9007199254740991,
          minSafe: -9007199254740991,
          sixteenDigits: 1234567890123456,
          fractions: [0.5, -1.25, 0.1, 123.456, 0.000001, 1e-7, 5e-324],
        },
      },
    },
    {
      name: 'empty-data',
      input: {
        ...base,
        id: '0193a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a2f',
        type: 'instance.heartbeat',
        stream: 'instance',
        streamVersion: 1,
        nonce: 'QEFCQ0RFRkdISUpLTE1OTw',
        data: {},
      },
    },
  ];
}

export function buildEnvelopeVectors(): EnvelopeVectorFile {
  const { privateKey, publicKey } = testSigningKey();
  const keyId = keyIdFor(publicKeyRaw(publicKey));
  const signer = createEnvelopeSigner({ origin: ORIGIN, privateKey, publicKey });
  const vectors = inputs(keyId).map(({ name, input }): EnvelopeVector => {
    const { envelope, text } = signer.seal(input);
    return {
      name,
      input,
      canonical: canonicalJson(input),
      signingInputHex: signingInput(input).toString('hex'),
      sig: envelope.sig,
      envelopeText: text,
    };
  });
  return {
    description: DESCRIPTION,
    privateKeySeedHex: Buffer.from(TEST_SEED).toString('hex'),
    publicKey: publicKeyBase64url(publicKey),
    keyId,
    vectors,
  };
}

/** The file's exact text (test/vectors/*.json is excluded from prettier, so this is the format). */
export function renderEnvelopeVectors(file: EnvelopeVectorFile): string {
  return `${JSON.stringify(file, null, 2)}\n`;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  writeFileSync(VECTORS_PATH, renderEnvelopeVectors(buildEnvelopeVectors()));
  console.error(`wrote ${VECTORS_PATH}`);
}
