// svc.spatial.read_presence (GET /wow/user/<userId>, public): who is present at this instance's hosted
// worlds, by presence receipt id or by subject (the traveller's agent id at their home instance, bare or
// as `urn:uuid:<id>`). An expired presence is gone: 404 like an unknown one.
import { invalid, notFound, uuidSchema } from '@tributary/domain';
import { z } from 'zod';
import { defineSpatialOperation } from './spatial-operation.js';
import { presenceAnswer, presenceOutput } from './presence-support.js';

export const readPresence = defineSpatialOperation({
  name: 'svc.spatial.read_presence',
  title: 'Who is present',
  description:
    'A live presence at a hosted world (GET /wow/user/<userId>), by receipt id or subject; 404 once expired.',
  kind: 'query',
  scopes: [],
  enabledFor: [],
  public: true,
  input: z.strictObject({ userId: z.string().max(100) }),
  output: presenceOutput,
  async run(ctx, input) {
    const bare = input.userId.replace(/^urn:uuid:/i, '');
    if (!uuidSchema.safeParse(bare).success)
      throw invalid('spatial.id_invalid', 'a user id is a receipt id or a subject (a UUID)', {
        field: 'userId',
      });
    const id = bare.toLowerCase();
    const now = ctx.services.clock.now();
    const read = ctx.services.presence.read;
    const byReceipt = input.userId.startsWith('urn:') ? null : await read.presence(id);
    const live =
      byReceipt && Date.parse(byReceipt.expiresAt) > now.getTime()
        ? byReceipt
        : byReceipt
          ? null
          : await read.livePresenceOf(`urn:uuid:${id}`, now);
    if (!live) throw notFound('spatial.presence_not_found', 'nobody is present under this id');
    return presenceAnswer(ctx, live);
  },
});
