import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Ids } from '@tributary/services';
import { v7 as uuidv7 } from 'uuid';

export const nodeIds: Ids = {
  eventId: () => uuidv7(),
  entityId: () => randomUUID(),
  nonce: () => randomBytes(16).toString('base64url'),
  secret: (bytes) => randomBytes(bytes).toString('base64url'),
  sha256: (value) => createHash('sha256').update(value).digest('hex'),
};
