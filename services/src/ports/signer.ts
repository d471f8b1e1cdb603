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

/** Ed25519 over the UTF-8 bytes of the RFC 8785 (JCS) form of a JSON document, with the instance key. */
export interface DocumentSigner {
  readonly keyId: string;
  /** The instance's public key: raw 32 bytes as unpadded base64url. */
  readonly publicKey: string;
  /** The same key as DER SubjectPublicKeyInfo, standard base64 (what Universal Manifest signatures carry). */
  readonly publicKeySpkiBase64: string;
  /** base64url (unpadded) signature of the canonical form of `document`. */
  sign(document: Record<string, unknown>): string;
  /**
   * The signature of the same bytes by another key this instance holds (a previous key during its
   * overlap), or undefined when it does not hold it.
   */
  signWith?(keyId: string, document: Record<string, unknown>): string | undefined;
  /** Whether `sig` is a valid signature of the canonical form of `document` under `publicKey`. */
  verify(document: Record<string, unknown>, sig: string, publicKey: string): boolean;
  /**
   * Strict parse of a JSON text: duplicate keys (`envelope.duplicate_key`), non-canonical numbers
   * (`envelope.non_canonical_number`) and malformed JSON (`envelope.malformed_json`) are refused.
   */
  parseStrict(text: string): unknown;
}
