// A sovereign instance delegating to the global one (docs/sso.md#delegation), when SSO_DELEGATION is on
// and a registered, unblocked global peer is known: passwords are checked there (within
// SSO_GLOBAL_TIMEOUT_MS), and new accounts are created there first. Only an unreachable global instance
// lets sign-in fall back to the local hash: a refusal is a refusal.
//
// A local account is linked to the person's agent at the global instance (docs/sso.md#one-agent): made
// with the account on a delegated sign-up, or at the first delegated sign-in of an older account. A
// linked account's password is checked by that agent's id (`remote-password/verify`); an unlinked one by
// an assertion (`sso/issue`), whose subject names the global agent to link. The link also binds the
// global agent to the account's own agent, so the copy the feed brings is that one agent.
import {
  agentStream,
  conflict,
  decideLinkAccount,
  DomainError,
  isDomainError,
  isGlobalInstance,
  ssoLinkStream,
  unauthenticated,
  type NewEvent,
  type SsoOnceState,
} from '@tributary/domain';
import type { SsoAreaContext } from './sso-operation.js';
import type { AccountView } from '../accounts/ports.js';
import type { DelegatedAccountAnswer } from './ports.js';
import { globalPeerOf, originOf, verifySignedAssertion } from './support.js';

async function delegationTarget(ctx: SsoAreaContext) {
  const { sso, federation: fed, federationSurface } = ctx.services;
  if (!sso?.delegation || !sso.global || !fed || !federationSurface || isGlobalInstance(ctx.instance.role))
    return null;
  const global = await globalPeerOf(ctx.services);
  // The global's assertions are checked as an sso operation checks them, on the slices found here.
  const checks = {
    instance: ctx.instance,
    services: { ...ctx.services, federation: fed, federationSurface },
  };
  return global ? { sso, fed, client: sso.global, global, checks } : null;
}

/** The local account a delegated sign-in signs into (and the link to make with it), or why there is none. */
export type DelegatedSignIn =
  | { kind: 'not_delegated' }
  | { kind: 'unreachable' }
  | { kind: 'no' }
  | {
      kind: 'yes';
      accountId: string;
      agentId: string;
      /** An unlinked account vouched for by the global instance: linked in the sign-in's commit. */
      link?: { origin: string; remoteAgentId: string };
    };

/** A refusal of the global instance, read: its throttle is ours, an unreachable one falls back. */
function globalRefusal(t: NonNullable<Awaited<ReturnType<typeof delegationTarget>>>, e: unknown) {
  if (!isDomainError(e)) throw e;
  if (e.kind === 'unavailable') {
    t.sso.log({ event: 'sso.global_unreachable', reason: e.code, during: 'sign-in' });
    return { kind: 'unreachable' as const };
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
  return { kind: 'no' as const };
}

/**
 * The global instance answers 409 `log.stream_conflict` when sign-ins of one person race on its side
 * (each writes to the person's streams): that is "ask again", not a refusal, so it is asked again a
 * few times before it counts as one.
 */
async function retryingConflicts<T>(ask: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await ask();
    } catch (e) {
      if (attempt >= 4 || !isDomainError(e) || e.code !== 'log.stream_conflict') throw e;
      await new Promise((resolve) => setTimeout(resolve, 20 * attempt + Math.random() * 30));
    }
  }
}

/**
 * Asks the global instance whether this password is right, and which local account it signs into.
 * `account` is the local account the identifier names (null when none). A linked account is checked by
 * its link; otherwise `yes` needs an assertion for this instance that verifies under the global
 * instance's registered key, and names a global agent that is linked here or can be linked to `account`
 * (unlinked). `unreachable` when the global instance could not be asked (down, a timeout, a 5xx).
 */
export async function delegatedSignIn(
  ctx: SsoAreaContext,
  identifier: string,
  password: string,
  account: AccountView | null,
): Promise<DelegatedSignIn> {
  const t = await delegationTarget(ctx);
  if (!t) return { kind: 'not_delegated' };
  const link = account ? await t.sso.read.linkOfAccount(account.accountId) : null;
  if (account && link?.origin === t.global.peerId) {
    // The account knows its person at the global instance: a yes or no for that agent, nothing more.
    try {
      const ok = await retryingConflicts(() =>
        t.client.verifyPassword(t.global.baseUrl, { identifier: link.remoteAgentId, password }),
      );
      return ok ? { kind: 'yes', accountId: account.accountId, agentId: account.agentId } : { kind: 'no' };
    } catch (e) {
      return globalRefusal(t, e);
    }
  }
  const audience = originOf(ctx.instance.baseUrl)!;
  let assertion: string;
  try {
    ({ assertion } = await retryingConflicts(() =>
      t.client.issue(t.global.baseUrl, { identifier, password, audience }),
    ));
  } catch (e) {
    return globalRefusal(t, e);
  }
  let sub: string;
  try {
    const claims = await verifySignedAssertion(t.checks, assertion);
    if (claims.iss.instanceId !== t.global.peerId)
      throw unauthenticated('sso.assertion_rejected', 'not the global');
    sub = claims.sub;
  } catch (e) {
    if (isDomainError(e) && e.code === 'sso.assertion_rejected') return { kind: 'no' };
    throw e;
  }
  const linkedId = await t.sso.read.accountLinkedTo(t.global.peerId, sub);
  if (linkedId) {
    const linked = await ctx.services.accounts.read.accountById(linkedId);
    return linked ? { kind: 'yes', accountId: linked.accountId, agentId: linked.agentId } : { kind: 'no' };
  }
  // An account made before links existed, or before this instance delegated: the identifier names it
  // here and there, and the global instance vouched for the password. It is linked now, once.
  if (!account || link) return { kind: 'no' };
  return {
    kind: 'yes',
    accountId: account.accountId,
    agentId: account.agentId,
    link: { origin: t.global.peerId, remoteAgentId: sub },
  };
}

/** The person's global agent is linked to another local account here (one account per agent). */
const agentLinkedElsewhere = () =>
  conflict(
    'sso.agent_already_linked',
    'this person is already linked to another account here; sign in with that account',
  );

/** The link of an account and, when the feed has not bound the global agent yet, its binding. */
export function linkEvents(link: {
  accountId: string;
  agentId: string;
  origin: string;
  remoteAgentId: string;
  via: 'sign_up' | 'sign_in';
  bind: boolean;
  state: SsoOnceState;
}): NewEvent[] {
  const { bind, state, ...cmd } = link;
  return [
    ...decideLinkAccount({ ...cmd, bound: bind }, state),
    ...(bind
      ? [
          {
            stream: agentStream(link.agentId),
            type: 'agent.materialized',
            data: { agentId: link.agentId, origin: link.origin, remoteAgentId: link.remoteAgentId },
          },
        ]
      : []),
  ];
}

/**
 * Runs the sign-in's one commit with what linking the account adds to it (nothing when `signedIn` has no
 * link to make). Under the import lock of the global instance: whether the link binds the global agent is
 * decided on what the imports bound, and stays true until the commit is in.
 */
export async function withAccountLink<T>(
  ctx: SsoAreaContext,
  signedIn: { accountId: string; agentId: string; link?: { origin: string; remoteAgentId: string } },
  commit: (part: { streams: string[]; decide: (states: Map<string, unknown>) => NewEvent[] }) => Promise<T>,
): Promise<T> {
  const { link } = signedIn;
  const sso = ctx.services.sso;
  const fed = ctx.services.federation;
  if (!link || !sso || !fed) return commit({ streams: [], decide: () => [] });
  return fed.store.holdingImports(link.origin, async () => {
    // Every link is written under this lock, so what is read here holds until the commit is in: two
    // sign-ins at once are decided one after the other (docs/sso.md#one-agent).
    const [mine, holder] = await Promise.all([
      sso.read.linkOfAccount(signedIn.accountId),
      sso.read.accountLinkedTo(link.origin, link.remoteAgentId),
    ]);
    // Another sign-in of this account linked it to this same agent meanwhile: that is our link too.
    if (mine?.origin === link.origin && mine.remoteAgentId === link.remoteAgentId)
      return commit({ streams: [], decide: () => [] });
    if (mine) throw conflict('sso.account_already_linked', 'this account is linked to another person');
    if (holder && holder !== signedIn.accountId) throw agentLinkedElsewhere();
    const bind = (await sso.read.localAgentOf(link.origin, link.remoteAgentId)) === null;
    const stream = ssoLinkStream(signedIn.accountId);
    return commit({
      streams: [stream, agentStream(signedIn.agentId)],
      decide: (states) =>
        linkEvents({
          accountId: signedIn.accountId,
          agentId: signedIn.agentId,
          origin: link.origin,
          remoteAgentId: link.remoteAgentId,
          via: 'sign_in',
          bind,
          state: states.get(stream) as SsoOnceState,
        }),
    });
  });
}

/** What a delegated sign-up links the new local account to. */
export interface DelegatedLink {
  origin: string;
  remoteAgentId: string;
  /** The feed has not bound the global agent here yet: the account's agent becomes its binding. */
  bind: boolean;
}

/**
 * Creates the account at the global instance first, then runs `create` with what the local account links
 * to (null when this instance does not delegate). Imports from the global instance wait meanwhile, so
 * the new global agent is bound to the local account's agent before its events can arrive. Its refusals
 * (a taken email or handle, bad input) come back with the global instance's own code; an unreachable
 * global instance is 503 `sso.global_unreachable` with Retry-After, and nothing is written.
 */
export async function withDelegatedAccount<T>(
  ctx: SsoAreaContext,
  request: { requestKey: string; email?: string; handle?: string; name: string; password: string },
  create: (link: DelegatedLink | null) => Promise<T>,
): Promise<T> {
  const t = await delegationTarget(ctx);
  if (!t) return create(null);
  const origin = t.global.peerId;
  return t.fed.store.holdingImports(origin, async () => {
    let answer: DelegatedAccountAnswer;
    try {
      answer = await t.client.signUp(t.global.baseUrl, request);
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
    // Test-only: a real crash between the global's answer and our commit (a retry must converge).
    t.sso.failpoints?.afterGlobalSignUp?.();
    // The global account is linked here already (its identifiers changed since): not a new account.
    if (await t.sso.read.accountLinkedTo(origin, answer.agentId)) throw agentLinkedElsewhere();
    const bind = (await t.sso.read.localAgentOf(origin, answer.agentId)) === null;
    return create({ origin, remoteAgentId: answer.agentId, bind });
  });
}

/**
 * Where the person resets their password, when it is not here: on a delegating instance an account linked
 * to its global agent has its password checked at the global instance, so a local reset would change only
 * the fallback hash and the new password would be refused (docs/sso.md#password-reset). Null when the
 * account's password is this instance's (no delegation, no global peer, or an unlinked account).
 */
export async function passwordHeldAtHome(
  ctx: SsoAreaContext,
  accountId: string,
): Promise<{ globalBaseUrl: string; forgotPasswordUrl: string } | null> {
  const t = await delegationTarget(ctx);
  if (!t) return null;
  const link = await t.sso.read.linkOfAccount(accountId);
  if (link?.origin !== t.global.peerId) return null;
  const globalBaseUrl = t.global.baseUrl.replace(/\/+$/, '');
  return { globalBaseUrl, forgotPasswordUrl: `${globalBaseUrl}/account/forgot-password` };
}
