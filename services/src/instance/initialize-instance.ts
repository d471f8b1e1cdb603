// First start: the instance, its signing key and its primary agent are written to the log once.
// Later starts check that the key on disk is one the log knows.
import {
  decideInitializeInstance,
  DomainError,
  fold,
  INSTANCE_STREAM,
  type InstanceRole,
  type InstanceState,
} from '@tributary/domain';
import { commitEvents } from '../pipeline/execute.js';
import type { InstanceOperationServices } from './instance-operation.js';

interface InstanceIdentity {
  role: InstanceRole;
  name: string;
  baseUrl: string;
  publicKey: string;
}

export async function initializeInstance(
  services: InstanceOperationServices,
  identity: InstanceIdentity,
  options: { checkRole?: boolean } = {},
): Promise<{ instanceId: string; created: boolean }> {
  const state = fold<InstanceState>(INSTANCE_STREAM, await services.store.readStream(INSTANCE_STREAM));
  if (state.initialized) {
    if (!state.keys.some((k) => k.keyId === services.signer.keyId && k.publicKey === identity.publicKey))
      throw new DomainError(
        'instance.key_mismatch',
        'invalid',
        `the signing key (${services.signer.keyId}) is not one this instance's log knows; restore the key file that belongs to this database`,
      );
    // The role is fixed at first start; `start` with another one is a configuration mistake.
    if ((options.checkRole ?? true) && state.role !== identity.role)
      throw new DomainError(
        'instance.role_mismatch',
        'invalid',
        `this instance was created as ${state.role}, not ${identity.role}`,
      );
    return { instanceId: state.instanceId!, created: false };
  }
  const primaryAgentId = services.ids.entityId();
  await commitEvents(
    services,
    [INSTANCE_STREAM, `agent-${primaryAgentId}`],
    (s) =>
      decideInitializeInstance(
        {
          instanceId: services.signer.origin,
          role: identity.role,
          name: identity.name,
          baseUrl: identity.baseUrl,
          primaryAgentId,
          signingKey: {
            keyId: services.signer.keyId,
            publicKey: identity.publicKey,
            validFrom: services.clock.now().toISOString(),
          },
        },
        s.get(INSTANCE_STREAM) as InstanceState,
      ),
    primaryAgentId,
  );
  return { instanceId: services.signer.origin, created: true };
}
