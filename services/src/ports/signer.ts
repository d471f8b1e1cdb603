import type { Envelope, UnsignedEnvelope } from '@tributary/domain';

/** Seals envelopes with the instance key: canonical bytes (RFC 8785) signed with Ed25519. */
export interface Signer {
  readonly origin: string;
  readonly keyId: string;
  /** Returns the signed envelope and its exact stored text (canonical JSON including `sig`). */
  seal(unsigned: UnsignedEnvelope): { envelope: Envelope; text: string };
  /**
   * Seals many envelopes — a bulk one signing on the thread pool (both cores) while the next ones are
   * canonicalized, a small one right away. Same result as `seal` on each, in order.
   */
  sealMany(unsigned: readonly UnsignedEnvelope[]): Promise<{ envelope: Envelope; text: string }[]>;
}
