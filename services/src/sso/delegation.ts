// A sovereign instance delegating to the global one (docs/sso.md#delegation), when SSO_DELEGATION is on
// and a registered, unblocked global peer is known: passwords are checked there (`sso/issue`, for this
// instance as audience, within SSO_GLOBAL_TIMEOUT_MS), and new accounts are created there first. Only an
// unreachable global instance lets sign-in fall back to the local hash: a refusal is a refusal.
import { DomainError, isDomainError, isGlobalInstance, unauthenticated } from '@tributary/domain';
import type { OperationContext } from '../pipeline/operation.js';
import type { DelegatedAccountAnswer } from '../ports/sso.js';
import { globalPeerOf, originOf, verifySignedAssertion } from './support.js';

async function delegationTarget(ctx: OperationContext) {
  const sso = ctx.services.sso;
  if (!sso?.delegation || !sso.global || isGlobalInstance(ctx.instance.role)) return null;
  const global = await globalPeerOf(ctx.services);
  return global ? { sso, client: sso.global, global } : null;
}

export type DelegatedPasswordAnswer = 'yes' | 'no' | 'unreachable' | 'not_delegated';

/**
 * Asks the global instance whether this password is right. `yes` only with an assertion for this
 * instance that verifies under the global instance's registered key; `unreachable` when it could not be
 * asked (down, a timeout, a 5xx); `no` for any refusal. Its throttle (429) is passed on as ours.
 */
export async function delegatedPasswordCheck(
  ctx: OperationContext,
  identifier: string,
  password: string,
): Promise<DelegatedPasswordAnswer> {
  const t = await delegationTarget(ctx);
  if (!t) return 'not_delegated';
  const audience = originOf(ctx.instance.baseUrl)!;
  let assertion: string;
  try {
    ({ assertion } = await t.client.issue(t.global.baseUrl, { identifier, password, audience }));
  } catch (e) {
    if (!isDomainError(e)) throw e;
    if (e.kind === 'unavailable') {
      t.sso.log({ event: 'sso.global_unreachable', reason: e.code, during: 'sign-in' });
      return 'unreachable';
    }
    if (e.kind === 'rate_limited')
      throw new DomainError(
        'auth.throttled',
        'rate_limited',
        'too many failed sign-ins; wait before trying again',
        {
          retryAfter: Number(e.details?.retryAfter) || 60,
        },
      );
    return 'no';
  }
  try {
    const claims = await verifySignedAssertion(ctx, assertion);
    if (claims.iss.instanceId !== t.global.peerId)
      throw unauthenticated('sso.assertion_rejected', 'not the global');
  } catch (e) {
    if (isDomainError(e) && e.code === 'sso.assertion_rejected') return 'no';
    throw e;
  }
  return 'yes';
}

/**
 * Creates the account at the global instance first. `null` when this instance does not delegate. Its
 * refusals (a taken email or handle, bad input) come back with the global instance's own code; an
 * unreachable global instance is 503 `sso.global_unreachable` with Retry-After, and nothing is written.
 */
export async function delegateAccountCreation(
  ctx: OperationContext,
  request: { requestKey: string; email?: string; handle?: string; name: string; password: string },
): Promise<DelegatedAccountAnswer | null> {
  const t = await delegationTarget(ctx);
  if (!t) return null;
  try {
    return await t.client.signUp(t.global.baseUrl, request);
  } catch (e) {
    if (isDomainError(e) && e.kind === 'unavailable') {
      t.sso.log({ event: 'sso.global_unreachable', reason: e.code, during: 'sign-up' });
      throw new DomainError(
        'sso.global_unreachable',
        'unavailable',
        'the global instance cannot be reached',
        {
          retryAfter: 30,
        },
      );
    }
    throw e;
  }
}
