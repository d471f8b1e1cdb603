// Identifier formats. Ids are made outside the domain (infra's Ids port) and arrive with the command.
import { z } from 'zod';

/** UUID versions 1 to 5, as the spec demands of `registry/[agentId]`. */
export const UUID_V1_TO_V5 = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-5][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
/** Any RFC 9562 UUID (we mint v7 for events and v4 for agents). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

export const uuidSchema = z.string().regex(UUID, 'must be a UUID');
/** Handles: 3–30 of a-z, 0-9, underscore, not starting with a digit or underscore. */
export const handleSchema = z
  .string()
  .regex(/^[a-z][a-z0-9_]{2,29}$/, 'handle: 3–30 characters a-z 0-9 _, starting with a letter');
export const emailSchema = z.string().max(254).email();

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

/**
 * A name-based UUID (RFC 9562 version 8, from SHA-256, as its appendix B.2 shows) from a hex SHA-256
 * digest: the digest's first 128 bits with the version and variant bits set. The same name always gives
 * the same id, so two writers deriving it at once contend for one stream.
 */
export function uuidV8FromDigest(digestHex: string): string {
  if (!/^[0-9a-f]{64}$/.test(digestHex)) throw new Error('uuidV8FromDigest takes a hex SHA-256 digest');
  const variant = ((parseInt(digestHex[16]!, 16) & 0x3) | 0x8).toString(16);
  const h = digestHex;
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
