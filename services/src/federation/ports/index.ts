// The federation area's ports and reads: the peer registry, import, the stores, and the public surface.
export * from './federation.js';
export * from './federation-surface.js';
