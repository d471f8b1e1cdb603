// The instance's Ed25519 signatures (every sealed event, signed peer request and signed document).
//
// libsodium, through sodium-native, signs in about half the time OpenSSL takes through node:crypto
// (figures: docs/log.md#signing).
// Ed25519 signing is deterministic (RFC 8032 §5.1.6), so both write the same 64 bytes for the same key
// and message: the choice changes the cost, never the log. node:crypto's KeyObject stays the key's
// form everywhere else, and the signer wherever the native module cannot load (a platform without a
// prebuilt binary) or when SIGNING_LIBRARY=node-crypto asks for it. Verification of peers' events uses
// libsodium too, with OpenSSL's answer wherever libsodium says no (ed25519-verification.ts).
import { sign, type KeyObject } from 'node:crypto';
import { publicKeyRaw } from './ed25519-keys.js';
import { loadSodium, type Sodium } from './sodium-native-binding.js';

export type SigningLibraryChoice = 'auto' | 'libsodium' | 'node-crypto';
export type SigningLibrary = 'libsodium' | 'node-crypto';

/** Signs a message with the instance key; `library` says which implementation does it. */
export interface Ed25519Sign {
  (message: Uint8Array): Buffer;
  readonly library: SigningLibrary;
}

/** PKCS#8 DER of an Ed25519 private key: this fixed 16-byte prefix, then the 32-byte seed (RFC 8410). */
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/**
 * The signer for `privateKey`: libsodium when it loads (`auto`, the default) or when required
 * (`libsodium`: an error if it cannot load), else node:crypto with the KeyObject.
 */
export function createEd25519Sign(privateKey: KeyObject, choice: SigningLibraryChoice = 'auto'): Ed25519Sign {
  if (privateKey.type !== 'private' || privateKey.asymmetricKeyType !== 'ed25519')
    throw new TypeError('createEd25519Sign: expected an Ed25519 private KeyObject');
  if (choice === 'node-crypto') return nodeCryptoSign(privateKey);
  const loaded = loadSodium();
  if ('error' in loaded) {
    if (choice === 'libsodium')
      throw new Error(`SIGNING_LIBRARY=libsodium, but sodium-native cannot load: ${loaded.error.message}`);
    return nodeCryptoSign(privateKey);
  }
  return sodiumSign(loaded.sodium, privateKey);
}

function nodeCryptoSign(privateKey: KeyObject): Ed25519Sign {
  return Object.assign((message: Uint8Array) => sign(null, message, privateKey), {
    library: 'node-crypto' as const,
  });
}

function sodiumSign(sodium: Sodium, privateKey: KeyObject): Ed25519Sign {
  // The expanded secret key lives in libsodium's guarded, locked memory; the DER copy it came from is
  // wiped at once.
  const der = privateKey.export({ format: 'der', type: 'pkcs8' });
  const secretKey = sodium.sodium_malloc(64);
  const publicKey = Buffer.alloc(32);
  try {
    if (der.length !== 48 || !der.subarray(0, 16).equals(PKCS8_ED25519_PREFIX))
      throw new Error('createEd25519Sign: unexpected PKCS#8 encoding of the Ed25519 key');
    sodium.crypto_sign_seed_keypair(publicKey, secretKey, der.subarray(16));
  } finally {
    sodium.sodium_memzero(der);
  }
  // The same key pair as the KeyObject's, or every signature would be refused under the published key.
  if (!publicKey.equals(publicKeyRaw(privateKey)))
    throw new Error('createEd25519Sign: libsodium derived another public key from the seed');
  return Object.assign(
    (message: Uint8Array) => {
      const signature = Buffer.allocUnsafe(64);
      sodium.crypto_sign_detached(signature, message, secretKey);
      return signature;
    },
    { library: 'libsodium' as const },
  );
}
