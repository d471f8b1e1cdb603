// OAuth clients (`oauth-client-<id>`), single-use authorization codes (`oauth-code-<digest>`) and
// refresh-token families (`oauth-family-<id>`). Domain codes are `oauth.<RFC error code>`, so the
// OAuth edge maps them to RFC 6749/7591 errors without a table.
import { DomainError } from '../shared/errors.js';
import type { OAuthRfcErrorCode } from './error-codes.js';
import type { NewEvent } from '../shared/envelope.js';
import type {
  OAuthDeviceApprovedData,
  OAuthDeviceRequestedData,
  OAuthClientRegisteredData,
  OAuthCodeIssuedData,
  OAuthRefreshIssuedData,
} from './events.js';
import { streamAggregate } from '../shared/aggregate.js';
import type { StoredEventLike } from '../shared/stored-event-like.js';

export const oauthClientStream = (clientId: string) => `oauth-client-${clientId}`;
export const oauthCodeStream = (codeDigest: string) => `oauth-code-${codeDigest}`;
export const oauthFamilyStream = (familyId: string) => `oauth-family-${familyId}`;
export const oauthDeviceStream = (deviceDigest: string) => `oauth-device-${deviceDigest}`;

/** An OAuth protocol error; `code` is the RFC error code after the `oauth.` prefix. */
/** `members` are extra members of the RFC error body (slow_down's current `interval`). */
export const oauthError = (rfcCode: OAuthRfcErrorCode, message: string, members?: Record<string, unknown>) =>
  new DomainError(
    `oauth.${rfcCode}`,
    rfcCode === 'invalid_client' ? 'unauthenticated' : 'invalid',
    message,
    members,
  );

export interface OAuthClientState {
  exists: boolean;
  client?: OAuthClientRegisteredData;
}
export const oauthClientStreams = streamAggregate('oauth-client-', {
  initial: (): OAuthClientState => ({ exists: false }),
  evolve: (s: OAuthClientState, e: StoredEventLike): OAuthClientState =>
    e.type === 'oauth_client.registered' ? { exists: true, client: e.data as OAuthClientRegisteredData } : s,
});

export function decideRegisterOAuthClient(
  cmd: OAuthClientRegisteredData,
  state: OAuthClientState,
): NewEvent[] {
  if (state.exists) throw oauthError('invalid_client_metadata', 'that client id is taken');
  return [{ stream: oauthClientStream(cmd.clientId), type: 'oauth_client.registered', data: { ...cmd } }];
}

/** Wrong PKCE verifiers a code survives; at this many it can no longer be redeemed. */
export const OAUTH_CODE_MAX_WRONG_VERIFIERS = 3;

export interface OAuthCodeState {
  code?: OAuthCodeIssuedData;
  redeemed: boolean;
  wrongVerifiers: number;
}
export const oauthCodeStreams = streamAggregate('oauth-code-', {
  initial: (): OAuthCodeState => ({ redeemed: false, wrongVerifiers: 0 }),
  evolve: (s: OAuthCodeState, e: StoredEventLike): OAuthCodeState =>
    e.type === 'oauth_code.issued'
      ? { code: e.data as OAuthCodeIssuedData, redeemed: false, wrongVerifiers: 0 }
      : e.type === 'oauth_code.redeemed'
        ? { ...s, redeemed: true }
        : e.type === 'oauth_code.verifier_refused'
          ? { ...s, wrongVerifiers: s.wrongVerifiers + 1 }
          : s,
});

export const oauthCodeLocked = (state: OAuthCodeState) =>
  state.wrongVerifiers >= OAUTH_CODE_MAX_WRONG_VERIFIERS;

const lockedError = () =>
  oauthError(
    'invalid_grant',
    `the authorization code is locked after ${OAUTH_CODE_MAX_WRONG_VERIFIERS} wrong code_verifiers`,
  );

export function decideIssueOAuthCode(cmd: OAuthCodeIssuedData, state: OAuthCodeState): NewEvent[] {
  if (state.code) throw oauthError('invalid_request', 'that code exists already');
  return [{ stream: oauthCodeStream(cmd.codeDigest), type: 'oauth_code.issued', data: { ...cmd } }];
}

/** Marks the code used. The caller checks client, redirect URI, PKCE and expiry first. */
export function decideRedeemOAuthCode(state: OAuthCodeState): NewEvent[] {
  if (!state.code) throw oauthError('invalid_grant', 'unknown authorization code');
  if (state.redeemed) throw oauthError('invalid_grant', 'the authorization code was already used');
  if (oauthCodeLocked(state)) throw lockedError();
  return [
    {
      stream: oauthCodeStream(state.code.codeDigest),
      type: 'oauth_code.redeemed',
      data: { codeDigest: state.code.codeDigest, familyId: state.code.familyId },
    },
  ];
}

/**
 * Records a wrong PKCE verifier. Appended at the code's expected version, like a redemption, so of
 * concurrent attempts only one counts or redeems: the lock bounds the guesses, not just the answers.
 */
export function decideRefuseCodeVerifier(state: OAuthCodeState): NewEvent[] {
  if (!state.code) throw oauthError('invalid_grant', 'unknown authorization code');
  if (state.redeemed) throw oauthError('invalid_grant', 'the authorization code was already used');
  if (oauthCodeLocked(state)) throw lockedError();
  return [
    {
      stream: oauthCodeStream(state.code.codeDigest),
      type: 'oauth_code.verifier_refused',
      data: { codeDigest: state.code.codeDigest, attempt: state.wrongVerifiers + 1 },
    },
  ];
}

export interface OAuthFamilyState {
  current?: OAuthRefreshIssuedData;
  /** Digests of refresh tokens already rotated away: presenting one again means theft. */
  used: string[];
  accessJtis: string[];
  revoked: boolean;
}
export const initialOAuthFamilyState = (): OAuthFamilyState => ({ used: [], accessJtis: [], revoked: false });
export const oauthFamilyStreams = streamAggregate('oauth-family-', {
  initial: initialOAuthFamilyState,
  evolve: (s: OAuthFamilyState, e: StoredEventLike): OAuthFamilyState => {
    if (e.type === 'oauth_refresh.issued') {
      const d = e.data as OAuthRefreshIssuedData;
      return {
        ...s,
        current: d,
        used: s.current ? [...s.used, s.current.refreshDigest] : s.used,
        accessJtis: [...s.accessJtis, d.accessJti],
      };
    }
    if (e.type === 'oauth_family.revoked') return { ...s, revoked: true };
    return s;
  },
});

export function decideRotateRefresh(cmd: OAuthRefreshIssuedData, state: OAuthFamilyState): NewEvent[] {
  if (state.revoked) throw oauthError('invalid_grant', 'the grant was revoked');
  return [{ stream: oauthFamilyStream(cmd.familyId), type: 'oauth_refresh.issued', data: { ...cmd } }];
}

export function decideRevokeFamily(
  familyId: string,
  reason: 'refresh_reuse' | 'code_reuse' | 'owner' | 'credentials_changed',
  state: OAuthFamilyState,
): NewEvent[] {
  if (state.revoked) return [];
  return [{ stream: oauthFamilyStream(familyId), type: 'oauth_family.revoked', data: { familyId, reason } }];
}

export interface OAuthDeviceState {
  request?: OAuthDeviceRequestedData;
  status: 'none' | 'pending' | 'approved' | 'denied' | 'redeemed';
  approval?: OAuthDeviceApprovedData;
}
export const oauthDeviceStreams = streamAggregate('oauth-device-', {
  initial: (): OAuthDeviceState => ({ status: 'none' }),
  evolve: (s: OAuthDeviceState, e: StoredEventLike): OAuthDeviceState => {
    switch (e.type) {
      case 'oauth_device.requested':
        return { status: 'pending', request: e.data as OAuthDeviceRequestedData };
      case 'oauth_device.approved':
        return { ...s, status: 'approved', approval: e.data as OAuthDeviceApprovedData };
      case 'oauth_device.denied':
        return { ...s, status: 'denied' };
      case 'oauth_device.redeemed':
        return { ...s, status: 'redeemed' };
      default:
        return s;
    }
  },
});

export function decideRequestDevice(cmd: OAuthDeviceRequestedData, state: OAuthDeviceState): NewEvent[] {
  if (state.status !== 'none') throw oauthError('invalid_request', 'that device code exists already');
  return [{ stream: oauthDeviceStream(cmd.deviceDigest), type: 'oauth_device.requested', data: { ...cmd } }];
}

/** A person approves or denies a pending request; only once, and only before it expires. */
export function decideDeviceDecision(
  cmd: { approve: false } | ({ approve: true } & Omit<OAuthDeviceApprovedData, 'deviceDigest'>),
  state: OAuthDeviceState,
  now: Date,
): NewEvent[] {
  const req = state.request;
  if (!req || state.status !== 'pending' || new Date(req.expiresAt) <= now)
    throw oauthError('expired_token', 'that code is no longer waiting for approval');
  const stream = oauthDeviceStream(req.deviceDigest);
  if (!cmd.approve)
    return [{ stream, type: 'oauth_device.denied', data: { deviceDigest: req.deviceDigest } }];
  const { approve: _approve, ...approval } = cmd;
  return [{ stream, type: 'oauth_device.approved', data: { deviceDigest: req.deviceDigest, ...approval } }];
}

/** The polling client's answer: the RFC 8628 §3.5 error, or the redemption event once approved. */
export function decideRedeemDevice(state: OAuthDeviceState, now: Date): NewEvent[] {
  const req = state.request;
  if (!req) throw oauthError('invalid_grant', 'unknown device code');
  if (state.status === 'redeemed') throw oauthError('invalid_grant', 'the device code was already used');
  if (state.status === 'denied') throw oauthError('access_denied', 'the person denied the request');
  if (new Date(req.expiresAt) <= now) throw oauthError('expired_token', 'the device code expired');
  if (state.status === 'pending') throw oauthError('authorization_pending', 'waiting for the person');
  return [
    {
      stream: oauthDeviceStream(req.deviceDigest),
      type: 'oauth_device.redeemed',
      data: { deviceDigest: req.deviceDigest },
    },
  ];
}
