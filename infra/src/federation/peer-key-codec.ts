// The PeerKeyCodec port: a peer's key is checked as an Ed25519 point and named like our own keys.
import { invalid } from '@tributary/domain';
import type { PeerKeyCodec } from '@tributary/services';
import { keyIdFor, publicKeyFromBase64url, publicKeyRaw } from '../signing/ed25519-keys.js';

export const peerKeyCodec: PeerKeyCodec = {
  keyIdOf(publicKey) {
    try {
      return keyIdFor(publicKeyRaw(publicKeyFromBase64url(publicKey)));
    } catch {
      throw invalid(
        'federation.bad_public_key',
        'the public key is not 32 bytes of Ed25519 as unpadded base64url',
      );
    }
  },
};
