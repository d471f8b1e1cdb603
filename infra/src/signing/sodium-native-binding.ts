// sodium-native (libsodium's Node binding), loaded once and shared by signing and verification. Its
// package ships no types: this is the part of it we use.
import { createRequire } from 'node:module';

export interface Sodium {
  crypto_sign_seed_keypair(pk: Uint8Array, sk: Uint8Array, seed: Uint8Array): void;
  crypto_sign_detached(sig: Uint8Array, message: Uint8Array, sk: Uint8Array): void;
  crypto_sign_verify_detached(sig: Uint8Array, message: Uint8Array, pk: Uint8Array): boolean;
  sodium_malloc(size: number): Buffer;
  sodium_memzero(buf: Uint8Array): void;
}

let sodiumLoad: { sodium: Sodium } | { error: Error } | undefined;

/** sodium-native, loaded once; the reason when it cannot load here (a platform without a prebuilt binary). */
export function loadSodium(): { sodium: Sodium } | { error: Error } {
  if (!sodiumLoad) {
    try {
      sodiumLoad = { sodium: createRequire(import.meta.url)('sodium-native') as Sodium };
    } catch (error) {
      sodiumLoad = { error: error as Error };
    }
  }
  return sodiumLoad;
}
