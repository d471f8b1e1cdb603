// Input pieces shared by the peer registry operations.
import { invalid } from '@tributary/domain';
import { z } from 'zod';

export const publicKeySchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{43}$/, 'the raw 32-byte Ed25519 public key as unpadded base64url')
  .describe('Ed25519 public key: 32 bytes, unpadded base64url');

/** A secret agreed out of band: long enough to be unguessable. */
export const sharedSecretSchema = z.string().min(32).max(512).describe('shared secret agreed out of band');

export const baseUrlSchema = z.string().max(2000).describe('the peer’s base URL, e.g. https://peer.example');

/** http(s), no credentials, query or fragment; stored without a trailing slash. */
export function normalizeBaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalid('federation.bad_base_url', 'the base URL is not a URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw invalid('federation.bad_base_url', 'the base URL must be http or https');
  if (url.username || url.password || url.search || url.hash)
    throw invalid(
      'federation.bad_base_url',
      'the base URL must not carry credentials, a query or a fragment',
    );
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}

export const peerOutput = z.object({
  peerId: z.string(),
  agentId: z.string(),
  name: z.string(),
  baseUrl: z.string(),
  role: z.string(),
  blocked: z.boolean(),
  blockedReason: z.string().nullable(),
  registeredAt: z.string(),
  updatedAt: z.string(),
  keys: z.array(
    z.object({
      keyId: z.string(),
      publicKey: z.string(),
      validFrom: z.string(),
      validUntil: z.string().nullable(),
      // Set when the peer revoked the key: what it signed at or after this time is refused.
      revokedAfter: z.string().nullable(),
    }),
  ),
});
