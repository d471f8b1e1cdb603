// The instance's own keys as its log has them (docs/operations.md#rotating-the-signing-key). Rotating and
// revoking are the catalogue operations svc.instance.rotate_key and svc.instance.revoke_key
// (rotate-key.ts, revoke-key.ts).
import { fold, INSTANCE_STREAM, type InstanceState } from '@tributary/domain';
import type { InstanceOperationServices } from './instance-operation.js';

/** The instance's keys as its log has them, oldest first. */
export async function instanceKeys(services: InstanceOperationServices): Promise<InstanceState['keys']> {
  return fold<InstanceState>(INSTANCE_STREAM, await services.store.readStream(INSTANCE_STREAM)).keys;
}
