// Step 3 of the pipeline (access) as one pure check, so `tools/list` shows a caller exactly the tools
// that `tools/call` would let it run (the two cannot drift apart).
import {
  forbidden,
  isLegacyExpired,
  missingScopes,
  unauthenticated,
  type DomainError,
} from '@tributary/domain';
import type { InstanceView } from '../ports/read-models.js';
import type { Operation } from './operation.js';
import { enabledForKind, type Principal, type Surface } from './principal.js';

export type { Surface } from './principal.js';

export interface AccessContext {
  instance: Pick<InstanceView, 'controllers'>;
  now: Date;
  legacyUnscopedSunset?: Date | undefined;
}

/** Why `principal` may not run `op` on `surface`, or null when it may. */
export function accessDenial(
  op: Pick<
    Operation,
    'name' | 'public' | 'enabledFor' | 'scopes' | 'controllerOnly' | 'remoteViewer' | 'remoteViewerRefusal'
  >,
  principal: Principal,
  surface: Surface,
  ctx: AccessContext,
): DomainError | null {
  if (principal.kind === 'anonymous' && !op.public)
    return unauthenticated('auth.required', 'sign in or present a token');
  // A remote viewer reads what is marked for it, over HTTP only; it is never a tool caller.
  if (principal.kind === 'remote_viewer' && (op.remoteViewer !== 'read' || surface !== 'http'))
    return forbidden(
      op.remoteViewer === 'read'
        ? 'auth.remote_viewer_not_allowed'
        : (op.remoteViewerRefusal ?? 'auth.remote_viewer_not_allowed'),
      'a remote viewer may only read',
      { tool: op.name },
    );
  const credential = enabledForKind(principal);
  if ((surface === 'mcp' || surface === 'assistant') && (!credential || !op.enabledFor.includes(credential)))
    return forbidden('auth.tool_not_enabled', `${op.name} is not available to this credential`, {
      tool: op.name,
      enabledFor: op.enabledFor,
    });
  if (principal.kind === 'token' || principal.kind === 'static') {
    const grant = { scopes: principal.scopes, legacySunset: ctx.legacyUnscopedSunset, now: ctx.now };
    if (isLegacyExpired(grant) && principal.scopes.length === 1)
      return forbidden('auth.legacy_unscoped_expired', 'the legacy unscoped credential is past its sunset');
    const missing = missingScopes(op.scopes, grant);
    if (missing.length > 0)
      return forbidden('auth.insufficient_scope', `missing scope ${missing.join(' ')}`, {
        missing,
        tool: op.name,
      });
  }
  if (op.controllerOnly && principal.kind !== 'system') {
    const accountId = 'accountId' in principal ? principal.accountId : undefined;
    if (!accountId || !ctx.instance.controllers.includes(accountId))
      return forbidden('auth.controller_only', 'only the instance operator may do this');
  }
  return null;
}

/**
 * An operation that moves money (it needs `svc.wallet.spend`): the assistant may propose it, but it never
 * runs unconfirmed and only the person, signed in, confirms it (docs/assistant.md#spending).
 */
export const spendsMoney = (op: { scopes: readonly string[] }): boolean =>
  op.scopes.includes('svc.wallet.spend');
