// svc.instance.rotate_key: the operator's key rotation (docs/operations.md#rotating-the-signing-key), the
// one code path of the REST route, the MCP tool and `tributary keys rotate`.
import {
  DomainError,
  MAX_KEY_OVERLAP_SECONDS,
  MIN_KEY_OVERLAP_SECONDS,
  decideRotateKey,
  INSTANCE_STREAM,
  invalid,
  type EventData,
  type InstanceState,
  type NewEvent,
} from '@tributary/domain';
import { z } from 'zod';
import { defineInstanceOperation } from './instance-operation.js';

export const rotateKey = defineInstanceOperation({
  name: 'svc.instance.rotate_key',
  title: 'Rotate the signing key',
  description:
    'Sign with a new Ed25519 key from now on; the current key stays valid for the overlap (60 s to 30 days, default 24 h) and keeps verifying what it signed. Peers adopt the new key from the announcement. Operators only.',
  kind: 'command',
  scopes: ['svc.admin'],
  enabledFor: ['session', 'token'],
  controllerOnly: true,
  actsForAgent: false,
  input: z.strictObject({
    overlapSeconds: z
      .number()
      .int()
      .default(24 * 3600)
      .describe('how long the current key stays valid after the rotation, in seconds (60 to 2592000)'),
  }),
  output: z.object({
    keyId: z.string(),
    previousKeyId: z.string(),
    validFrom: z.string(),
    previousValidUntil: z.string(),
  }),
  async run(ctx, input) {
    const { services } = ctx;
    // Checked before the key file is written, so a refused rotation leaves nothing behind.
    if (input.overlapSeconds < MIN_KEY_OVERLAP_SECONDS || input.overlapSeconds > MAX_KEY_OVERLAP_SECONDS)
      throw invalid(
        'instance.bad_key_window',
        `the overlap is ${MIN_KEY_OVERLAP_SECONDS} to ${MAX_KEY_OVERLAP_SECONDS} seconds (30 days)`,
      );
    if (!services.instanceKeys)
      throw new DomainError('instance.keys_unavailable', 'unavailable', 'no key folder in this process');
    // The key's file is written before the log names it, so every process that sees the rotation finds it.
    const key = services.instanceKeys.create();
    let decided: NewEvent[] = [];
    await ctx.commit(
      [INSTANCE_STREAM],
      (s) =>
        (decided = decideRotateKey(
          { keyId: key.keyId, publicKey: key.publicKey, overlapSeconds: input.overlapSeconds, now: ctx.now },
          s.get(INSTANCE_STREAM) as InstanceState,
        )),
    );
    const d = decided[0]!.data as EventData<'instance.key_rotated'>;
    return {
      keyId: d.keyId,
      previousKeyId: d.previousKeyId,
      validFrom: d.validFrom,
      previousValidUntil: d.previousValidUntil,
    };
  },
});
