// What the door and the presence reads share: the answer's shape and URL origins.
import type { SpatialOperationContext } from './spatial-operation.js';
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

/** What we know of a presence beyond upstream's `User`: under the one extension member `tributary`. */
const presenceExtension = z.object({
  subject: z.string(),
  worldId: z.string(),
  /** The traveller's home (OpenUserManifest `home`), when they shared it. */
  home: z.string().optional(),
  issuer: z.object({ instanceId: z.string(), baseUrl: z.string() }),
  admittedAt: z.string(),
  renewedAt: z.string(),
  expiresAt: z.string(),
  /** Where to ask again: GET /wow/user/<id>. */
  presence: z.string(),
});

/**
 * A presence as /wow/user answers it: upstream's OpenSpatialWorld `User` (`id`, and `name` and
 * `AvatarURI`, spelled as upstream spells them, when the traveller shared them; no `geoPose`, which a
 * presentation does not carry), our additions under `tributary`.
 */
export const presenceOutput = z.object({
  id: z.string(),
  name: z.string().optional(),
  AvatarURI: z.string().optional(),
  tributary: presenceExtension,
});

/** The door's answer: the presence, and whether this admission renewed a live one. */
export const admissionOutput = presenceOutput.extend({
  tributary: presenceExtension.extend({ renewed: z.boolean() }),
});

export function presenceAnswer(ctx: SpatialOperationContext, p: PresenceView) {
  const { name, avatarAssetURI, home } = p.content;
  return {
    id: p.receiptId,
    ...(name !== undefined && { name }),
    ...(avatarAssetURI !== undefined && { AvatarURI: avatarAssetURI }),
    tributary: {
      subject: p.subject,
      worldId: p.worldId,
      ...(home !== undefined && { home }),
      issuer: p.issuer,
      admittedAt: p.admittedAt,
      renewedAt: p.renewedAt,
      expiresAt: p.expiresAt,
      presence: `${ctx.instance.baseUrl}/wow/user/${p.receiptId}`,
    },
  };
}
