// svc.instance.revoke_key: disown what a compromised key of this instance signed from a time on
// (docs/operations.md#a-compromised-key); the one code path of the REST route, the MCP tool and
// `tributary keys revoke`.
import { decideRevokeKey, INSTANCE_STREAM, type InstanceState } from '@tributary/domain';
import { z } from 'zod';
import { defineInstanceOperation } from './instance-operation.js';

export const revokeKey = defineInstanceOperation({
  name: 'svc.instance.revoke_key',
  title: 'Revoke a signing key',
  description:
    'Disown what a key of this instance signed that occurred at or after `after` (default now): log verify flags it and peers refuse it. The current key cannot be revoked: rotate first. Operators only.',
  kind: 'command',
  scopes: ['svc.admin'],
  enabledFor: ['session', 'token'],
  controllerOnly: true,
  actsForAgent: false,
  input: z.strictObject({
    keyId: z.string().min(1).max(200),
    after: z
      .string()
      .datetime({ offset: true })
      .optional()
      .describe('RFC 3339 time from which its signatures are not ours (default: now)'),
  }),
  output: z.object({ keyId: z.string(), revokedAfter: z.string() }),
  async run(ctx, input) {
    const revokedAfter = input.after === undefined ? ctx.now : new Date(input.after);
    await ctx.commit([INSTANCE_STREAM], (s) =>
      decideRevokeKey({ keyId: input.keyId, revokedAfter }, s.get(INSTANCE_STREAM) as InstanceState),
    );
    return { keyId: input.keyId, revokedAfter: revokedAfter.toISOString() };
  },
});
