// Envelope signing and verification (docs/architecture.md#envelope).
export * from './strict-json.js';
export * from './canonical-json.js';
export * from './ed25519-keys.js';
export * from './ed25519-signing.js';
export * from './ed25519-verification.js';
export * from './envelope-signer.js';
export * from './envelope-verifier.js';
export * from './key-ring.js';
export * from './ring-signer.js';
export * from './sodium-native-binding.js';
export * from './ed25519-verify-worker.js';
