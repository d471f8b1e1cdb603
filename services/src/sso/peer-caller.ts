// The peer-only operations of single sign-on answer signed peer requests and nothing else.
import { forbidden, requireGlobalInstance } from '@tributary/domain';
import type { SsoOperationContext } from './sso-operation.js';

/** The peer asking; a session, a token or anyone else is refused with `sso.peer_request_required`. */
export function peerCaller(ctx: SsoOperationContext, globalAction?: string): string {
  if (ctx.principal.kind !== 'peer')
    throw forbidden('sso.peer_request_required', 'this answers signed peer requests only');
  if (globalAction) requireGlobalInstance(ctx.instance.role, globalAction);
  return ctx.principal.peerId;
}
