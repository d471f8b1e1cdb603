// The streams of single sign-on and their folds.
import { streamAggregate } from '../shared/aggregate.js';
import type { NewEvent } from '../shared/envelope.js';
import { conflict } from '../shared/errors.js';
import type { StoredEventLike } from '../shared/stored-event-like.js';

/** One stream per (issuer, nonce): an assertion is accepted here at most once, for ever. */
export const ssoNonceStream = (issuerInstanceId: string, nonce: string) =>
  `sso-nonce-${issuerInstanceId}-${nonce}`;
/** Per person at home: the assertions issued for them and their authority revocations. */
export const ssoAuthorityStream = (agentId: string) => `sso-authority-${agentId}`;
/** Per (peer, request key) digest: a delegated account request, answered the same way every time. */
export const ssoRequestStream = (digest: string) => `sso-request-${digest}`;

/** Per person at the global instance: their home instance, recorded once. */
export const ssoHomeStream = (agentId: string) => `sso-home-${agentId}`;
/** Per local account: its link to the person's agent at the global instance, made once. */
export const ssoLinkStream = (accountId: string) => `sso-link-${accountId}`;

export interface SsoNonceState {
  used: boolean;
}
export const ssoNonceStreams = streamAggregate<SsoNonceState>('sso-nonce-', {
  initial: () => ({ used: false }),
  evolve: (s, e: StoredEventLike) => (e.type === 'sso.assertion_accepted' ? { used: true } : s),
});

export interface SsoAuthorityState {
  /** Raised by each revocation; assertions carry the version they were issued at. */
  credentialVersion: number;
}
export const ssoAuthorityStreams = streamAggregate<SsoAuthorityState>('sso-authority-', {
  initial: () => ({ credentialVersion: 0 }),
  evolve: (s, e: StoredEventLike) =>
    e.type === 'sso.authority_revoked'
      ? { credentialVersion: Number((e.data as { credentialVersion: number }).credentialVersion) }
      : s,
});

export interface SsoRequestState {
  done: boolean;
  requestDigest?: string;
  accountId?: string;
  agentId?: string;
  created?: boolean;
}
export const ssoRequestStreams = streamAggregate<SsoRequestState>('sso-request-', {
  initial: () => ({ done: false }),
  evolve: (s, e: StoredEventLike) => {
    if (e.type !== 'sso.delegated_account') return s;
    const d = e.data as { requestDigest: string; accountId: string; agentId: string; created: boolean };
    return {
      done: true,
      requestDigest: d.requestDigest,
      accountId: d.accountId,
      agentId: d.agentId,
      created: d.created,
    };
  },
});

export interface SsoOnceState {
  /** The stream's one event was written (a home recorded, an account linked). */
  done: boolean;
}
const once = (type: string) => ({
  initial: (): SsoOnceState => ({ done: false }),
  evolve: (s: SsoOnceState, e: StoredEventLike) => (e.type === type ? { done: true } : s),
});
export const ssoHomeStreams = streamAggregate<SsoOnceState>('sso-home-', once('sso.home_recorded'));
export const ssoLinkStreams = streamAggregate<SsoOnceState>('sso-link-', once('sso.account_linked'));

export const ssoAggregateList = [
  ssoNonceStreams,
  ssoAuthorityStreams,
  ssoRequestStreams,
  ssoHomeStreams,
  ssoLinkStreams,
] as const;

/** Burns the nonce; a used one is a replay (the caller answers it generically). */
export function decideAcceptAssertion(
  cmd: {
    issuerInstanceId: string;
    nonce: string;
    subject: string;
    agentId: string;
    home: string;
    credentialId: string;
    credentialVersion: number;
    expiresAt: string;
  },
  state: SsoNonceState,
): NewEvent[] {
  if (state.used) throw conflict('sso.assertion_replayed', 'this assertion was already used here');
  return [
    {
      stream: ssoNonceStream(cmd.issuerInstanceId, cmd.nonce),
      type: 'sso.assertion_accepted',
      data: { ...cmd },
    },
  ];
}

/** Raises the person's credential version: everything minted from older assertions ends. */
export function decideRevokeAuthority(
  cmd: { agentId: string; revokedAt: string },
  state: SsoAuthorityState,
): NewEvent[] {
  return [
    {
      stream: ssoAuthorityStream(cmd.agentId),
      type: 'sso.authority_revoked',
      data: { credentialVersion: state.credentialVersion + 1, revokedAt: cmd.revokedAt },
    },
  ];
}

/** Records the person's home once; a home already recorded is kept (the first sovereign stays it). */
export function decideRecordHome(
  cmd: { agentId: string; accountId: string; peerId: string },
  state: SsoOnceState,
): NewEvent[] {
  if (state.done) return [];
  return [
    {
      stream: ssoHomeStream(cmd.agentId),
      type: 'sso.home_recorded',
      data: { ...cmd, via: 'delegated_sign_up' },
    },
  ];
}

/** Links a local account to the person's agent at the global instance, once. */
export function decideLinkAccount(
  cmd: {
    accountId: string;
    agentId: string;
    origin: string;
    remoteAgentId: string;
    via: 'sign_up' | 'sign_in';
    bound: boolean;
  },
  state: SsoOnceState,
): NewEvent[] {
  if (state.done) throw conflict('sso.account_already_linked', 'this account is linked already');
  return [{ stream: ssoLinkStream(cmd.accountId), type: 'sso.account_linked', data: { ...cmd } }];
}
