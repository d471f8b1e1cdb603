import type { Envelope, UnsignedEnvelope } from '@tributary/domain';

/** Seals envelopes with the instance key: canonical bytes (RFC 8785) signed with Ed25519. */
export interface Signer {
  readonly origin: string;
  readonly keyId: string;
  /** Returns the signed envelope and its exact stored text (canonical JSON including `sig`). */
  seal(unsigned: UnsignedEnvelope): { envelope: Envelope; text: string };
  /**
   * Seals many envelopes, giving the event loop a turn between large runs of them (with libsodium they
   * sign on this thread; with node:crypto a bulk one signs on the thread pool). Same result as `seal` on
   * each, in order.
   */
  sealMany(unsigned: readonly UnsignedEnvelope[]): Promise<{ envelope: Envelope; text: string }[]>;
}
