// The global instance's address registry (docs/federation.md#site-address-registry): only a peer's
// signed request reaches it, only the global instance keeps it, and the instance a label is registered
// to is always the peer that signed.
import { requireGlobalInstance, requireValidLabel, unauthenticated } from '@tributary/domain';
import type { BuilderOperationContext } from './builder-operation.js';
import { instanceReservedLabelsOf } from './site-address-support.js';

/** The peer instance asking, on the global instance; anything else is refused. */
export function registryCaller(ctx: BuilderOperationContext): string {
  if (ctx.principal.kind !== 'peer')
    throw unauthenticated(
      'federation.signature_required',
      'the address registry answers signed peer requests',
    );
  requireGlobalInstance(ctx.instance.role, 'keep the site address registry');
  return ctx.principal.peerId;
}

/** The same label rules as for our own sites, with the global instance's own names reserved. */
export async function requireRegistrableLabel(ctx: BuilderOperationContext, label: string): Promise<void> {
  requireValidLabel(label, await instanceReservedLabelsOf(ctx));
}
