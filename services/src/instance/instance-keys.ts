// The instance's own key changes (docs/operations.md#rotating-the-signing-key): a rotation, signed with
// the key it retires, and a revocation, signed with the current key. The key material itself is the
// caller's (infra writes the new key's file before this names it); events carry public keys only.
import {
  decideRevokeKey,
  decideRotateKey,
  DomainError,
  fold,
  INSTANCE_STREAM,
  type EventData,
  type InstanceState,
  type NewEvent,
} from '@tributary/domain';
import { commitEvents } from '../pipeline/execute.js';
import type { Services } from '../pipeline/services.js';

async function primaryAgentOf(services: Services): Promise<string> {
  const instance = await services.read.instance.get();
  if (!instance) throw new DomainError('instance.not_initialized', 'unavailable', 'the instance is starting');
  return instance.primaryAgentId;
}

export async function rotateInstanceKey(
  services: Services,
  cmd: { keyId: string; publicKey: string; overlapSeconds: number },
): Promise<{ keyId: string; previousKeyId: string; validFrom: string; previousValidUntil: string }> {
  const now = services.clock.now();
  let decided: NewEvent[] = [];
  await commitEvents(
    services,
    [INSTANCE_STREAM],
    (s) => (decided = decideRotateKey({ ...cmd, now }, s.get(INSTANCE_STREAM) as InstanceState)),
    await primaryAgentOf(services),
  );
  const d = decided[0]!.data as EventData<'instance.key_rotated'>;
  return {
    keyId: d.keyId,
    previousKeyId: d.previousKeyId,
    validFrom: d.validFrom,
    previousValidUntil: d.previousValidUntil,
  };
}

export async function revokeInstanceKey(
  services: Services,
  cmd: { keyId: string; revokedAfter: Date },
): Promise<{ keyId: string; revokedAfter: string }> {
  await commitEvents(
    services,
    [INSTANCE_STREAM],
    (s) => decideRevokeKey(cmd, s.get(INSTANCE_STREAM) as InstanceState),
    await primaryAgentOf(services),
  );
  return { keyId: cmd.keyId, revokedAfter: cmd.revokedAfter.toISOString() };
}

/** The instance's keys as its log has them, oldest first. */
export async function instanceKeys(services: Services): Promise<InstanceState['keys']> {
  return fold<InstanceState>(INSTANCE_STREAM, await services.store.readStream(INSTANCE_STREAM)).keys;
}
