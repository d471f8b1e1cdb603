// The instance's signing functions over its key ring: whatever the ring's current key is at the moment
// of signing (docs/operations.md#rotating-the-signing-key). An envelope is sealed with the key it names,
// so an envelope built just before a switch is still sealed under its own key id.
import type { Envelope, UnsignedEnvelope } from '@tributary/domain';
import type { Signer } from '@tributary/services';
import type { Ed25519Sign } from './ed25519-signing.js';
import { createEnvelopeSigner } from './envelope-signer.js';
import type { HeldKey, KeyRing } from './key-ring.js';

/** An Ed25519Sign that signs with the ring's current key. */
export function currentKeySign(ring: KeyRing): Ed25519Sign {
  const sign = (message: Uint8Array) => ring.current().sign(message);
  Object.defineProperty(sign, 'library', { get: () => ring.current().sign.library, enumerable: true });
  return sign as Ed25519Sign;
}

/** The envelope signer of `origin` over the ring. */
export function createRingSigner(ring: KeyRing, origin: string): Signer {
  const signers = new Map<string, Signer>();
  const signerOf = (k: HeldKey): Signer => {
    let s = signers.get(k.keyId);
    if (!s) {
      s = createEnvelopeSigner({
        origin,
        privateKey: k.pair.privateKey,
        publicKey: k.pair.publicKey,
        sign: k.sign,
      });
      signers.set(k.keyId, s);
    }
    return s;
  };
  const forEnvelope = (u: UnsignedEnvelope) => {
    const k = ring.held(u.keyId);
    // An unknown key id falls to the current signer, which refuses it by name.
    return signerOf(k ?? ring.current());
  };
  return {
    origin,
    get keyId() {
      return ring.current().keyId;
    },
    seal: (u) => forEnvelope(u).seal(u),
    async sealMany(unsigned): Promise<{ envelope: Envelope; text: string }[]> {
      if (unsigned.length === 0) return [];
      const first = unsigned[0]!.keyId;
      if (unsigned.every((u) => u.keyId === first)) return forEnvelope(unsigned[0]!).sealMany(unsigned);
      return unsigned.map((u) => forEnvelope(u).seal(u));
    },
  };
}
