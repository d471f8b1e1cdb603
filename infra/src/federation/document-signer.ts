// Signs and verifies JSON documents (manifests, peer mutation envelopes) like our events: Ed25519 over the
// UTF-8 bytes of their RFC 8785 form. Public keys are cached as KeyObjects.
import type { DocumentSigner } from '@tributary/services';
import { verify, type KeyObject } from 'node:crypto';
import { canonicalJson } from '../signing/canonical-json.js';
import { keyIdFor, publicKeyFromBase64url, publicKeyRaw, signatureBytes } from '../signing/ed25519-keys.js';
import { createEd25519Sign, type Ed25519Sign } from '../signing/ed25519-signing.js';
import type { KeyRing } from '../signing/key-ring.js';
import { parseStrictJson } from '../signing/strict-json.js';

export function createDocumentSigner(o: {
  privateKey: KeyObject;
  publicKey: KeyObject;
  /** The instance's signing function (ed25519-signing.ts); by default one made for `privateKey`. */
  sign?: Ed25519Sign;
}): DocumentSigner {
  const raw = publicKeyRaw(o.publicKey);
  const signBytes = o.sign ?? createEd25519Sign(o.privateKey);
  const keys = new Map<string, KeyObject>();
  const keyOf = (publicKey: string) => {
    let k = keys.get(publicKey);
    if (!k) {
      k = publicKeyFromBase64url(publicKey);
      if (keys.size > 1000) keys.clear();
      keys.set(publicKey, k);
    }
    return k;
  };
  return {
    keyId: keyIdFor(raw),
    publicKey: Buffer.from(raw).toString('base64url'),
    publicKeySpkiBase64: o.publicKey.export({ format: 'der', type: 'spki' }).toString('base64'),
    sign: (document) => signBytes(Buffer.from(canonicalJson(document), 'utf8')).toString('base64url'),
    verify(document, sig, publicKey) {
      // One spelling of 64 bytes only (unused trailing bits zero), as for event signatures.
      const signature = signatureBytes(sig);
      if (!signature) return false;
      let input: Buffer;
      try {
        input = Buffer.from(canonicalJson(document), 'utf8');
      } catch {
        return false; // e.g. a lone surrogate: no canonical form, so nothing can have signed it
      }
      return verify(null, input, keyOf(publicKey), signature);
    },
    parseStrict: (text) => parseStrictJson(text),
  };
}

/**
 * The document signer of an instance whose key may rotate while it runs: it always signs with the ring's
 * current key (and names it), and with a previous one on request (the manifest's overlap signatures).
 */
export function createRingDocumentSigner(ring: KeyRing): DocumentSigner {
  const bytesOf = (document: Record<string, unknown>) => Buffer.from(canonicalJson(document), 'utf8');
  const verifier = createDocumentSigner({ ...ring.base.pair, sign: ring.base.sign });
  return {
    get keyId() {
      return ring.current().keyId;
    },
    get publicKey() {
      return ring.current().publicKey;
    },
    get publicKeySpkiBase64() {
      return ring.current().pair.publicKey.export({ format: 'der', type: 'spki' }).toString('base64');
    },
    sign: (document) => ring.current().sign(bytesOf(document)).toString('base64url'),
    signWith(keyId, document) {
      return ring.held(keyId)?.sign(bytesOf(document)).toString('base64url');
    },
    verify: verifier.verify,
    parseStrict: verifier.parseStrict,
  };
}
