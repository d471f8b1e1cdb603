import { createHash, randomBytes, randomFillSync, randomUUID } from 'node:crypto';
import type { Ids } from '@tributary/services';
import { v7 as uuidv7 } from 'uuid';

const NONCE_BYTES = 16;
/** Nonces are cut from one buffer of CSPRNG output, refilled every 256 nonces (as uuid pools its bytes). */
const nonceBytes = Buffer.alloc(NONCE_BYTES * 256);
let nonceAt = nonceBytes.length;

/** 16 fresh random bytes as base64url; one randomFillSync call per 256 instead of one per nonce. */
function nonce(): string {
  if (nonceAt === nonceBytes.length) {
    randomFillSync(nonceBytes);
    nonceAt = 0;
  }
  const text = nonceBytes.toString('base64url', nonceAt, nonceAt + NONCE_BYTES);
  // Spent bytes are cleared: a nonce is public once sent, but never handed out twice from memory.
  nonceBytes.fill(0, nonceAt, (nonceAt += NONCE_BYTES));
  return text;
}

export const nodeIds: Ids = {
  eventId: () => uuidv7(),
  entityId: () => randomUUID(),
  nonce,
  secret: (bytes) => randomBytes(bytes).toString('base64url'),
  sha256: (value) => createHash('sha256').update(value).digest('hex'),
};
