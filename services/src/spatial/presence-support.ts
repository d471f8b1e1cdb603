// What the door and the presence reads share: the answer's shape and URL origins.
import type { OperationContext } from '../pipeline/operation.js';
import type { PresenceView } from './ports.js';
import { z } from 'zod';

/** Origins compared as URLs (scheme, host, port), so a trailing slash or a path never decides. */
export const sameOrigin = (a: string, b: string): boolean => {
  try {
    return new URL(a).origin === new URL(b).origin;
  } catch {
    return false;
  }
};

/** A presence as /wow/user answers it: the WoW 0.0.1 `User` (`id`) with what we know of it. */
export const presenceOutput = z.object({
  id: z.string(),
  subject: z.string(),
  worldId: z.string(),
  content: z.object({
    name: z.string().optional(),
    avatarAssetURI: z.string().optional(),
    home: z.string().optional(),
  }),
  issuer: z.object({ instanceId: z.string(), baseUrl: z.string() }),
  admittedAt: z.string(),
  renewedAt: z.string(),
  expiresAt: z.string(),
  /** Where to ask again: GET /wow/user/<id>. */
  presence: z.string(),
});

export function presenceAnswer(ctx: OperationContext, p: PresenceView) {
  return {
    id: p.receiptId,
    subject: p.subject,
    worldId: p.worldId,
    content: p.content,
    issuer: p.issuer,
    admittedAt: p.admittedAt,
    renewedAt: p.renewedAt,
    expiresAt: p.expiresAt,
    presence: `${ctx.instance.baseUrl}/wow/user/${p.receiptId}`,
  };
}
