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

export const ssoAggregateList = [ssoNonceStreams, ssoAuthorityStreams, ssoRequestStreams] as const;

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
