// The account aggregate (stream `account-<id>`) and sessions (stream `session-<id>`).
import { conflict, forbidden, invalid, notFound, unauthenticated } from '../shared/errors.js';
import type { NewEvent } from '../shared/envelope.js';
import type { AccountEventData as EventData } from './events.js';
import { agentStream, decideClaimHandle, type ClaimState } from '../agents/index.js';
import { INSTANCE_STREAM, type InstanceState } from '../instance/index.js';
import type { StoredEventLike } from '../shared/stored-event-like.js';
import { isChoosableTimeZone } from '../shared/moment-words.js';

export const accountStream = (accountId: string) => `account-${accountId}`;
export const sessionStream = (sessionId: string) => `session-${sessionId}`;
/** The email claim stream is named by a digest the caller computes, so no address appears in a stream name. */
export const emailStream = (emailDigest: string) => `email-${emailDigest}`;

export interface AccountState {
  exists: boolean;
  accountId?: string;
  agentId?: string;
  passwordHash?: string;
  email?: string;
  /** The address last verified (a later change of address would need verifying again). */
  verifiedEmail?: string;
  /** Peer apps may find the person in a user search unless they opted out. */
  discoverable?: boolean;
  /** The time zone the person chose for their pages' times; absent or null when they chose none. */
  timeZone?: string | null;
  /** An operator disabled it: no sign-in until enabled again. */
  disabled?: boolean;
}
export const initialAccountState = (): AccountState => ({ exists: false });

export function evolveAccount(state: AccountState, event: StoredEventLike): AccountState {
  switch (event.type) {
    case 'account.registered': {
      const d = event.data as EventData<'account.registered'>;
      return {
        exists: true,
        accountId: d.accountId,
        agentId: d.agentId,
        passwordHash: d.passwordHash,
        ...(d.email && { email: d.email }),
        discoverable: true,
      };
    }
    case 'account.email_verified':
      return { ...state, verifiedEmail: (event.data as EventData<'account.email_verified'>).email };
    case 'account.password_changed':
      return { ...state, passwordHash: (event.data as EventData<'account.password_changed'>).passwordHash };
    case 'account.disabled':
      return { ...state, disabled: true };
    case 'account.enabled':
      return { ...state, disabled: false };
    case 'account.discovery_set':
      return { ...state, discoverable: (event.data as EventData<'account.discovery_set'>).discoverable };
    case 'account.time_zone_set':
      return { ...state, timeZone: (event.data as EventData<'account.time_zone_set'>).timeZone };
    default:
      return state;
  }
}

/**
 * An operator disables an account (or enables it again). An operator's own account cannot be disabled,
 * so an instance never loses its last operator this way. The same choice again writes nothing.
 */
export function decideSetAccountDisabled(
  cmd: { accountId: string; disabled: boolean; reason?: string | undefined; isOperator: boolean },
  s: AccountState,
): NewEvent[] {
  if (!s.exists) throw notFound('account.not_found', 'no such account');
  if (cmd.disabled && cmd.isOperator)
    throw conflict('account.is_operator', 'an operator’s account cannot be disabled');
  if ((s.disabled ?? false) === cmd.disabled) return [];
  return cmd.disabled
    ? [
        {
          stream: accountStream(cmd.accountId),
          type: 'account.disabled',
          data: cmd.reason ? { reason: cmd.reason } : {},
        },
      ]
    : [{ stream: accountStream(cmd.accountId), type: 'account.enabled', data: {} }];
}

/** Opting in or out of user search; the same choice again writes nothing. */
export function decideSetDiscoverable(accountId: string, discoverable: boolean, s: AccountState): NewEvent[] {
  if (!s.exists) throw notFound('account.not_found', 'no such account');
  if ((s.discoverable ?? true) === discoverable) return [];
  return [{ stream: accountStream(accountId), type: 'account.discovery_set', data: { discoverable } }];
}

/**
 * The time zone for the person's pages (null: their browser's again). Only a zone of
 * `timeZoneChoices()`; the same choice again writes nothing.
 */
export function decideSetTimeZone(accountId: string, timeZone: string | null, s: AccountState): NewEvent[] {
  if (!s.exists) throw notFound('account.not_found', 'no such account');
  if (timeZone !== null && !isChoosableTimeZone(timeZone))
    throw invalid('account.time_zone_unknown', 'not a time zone of the list', { timeZone });
  if ((s.timeZone ?? null) === timeZone) return [];
  return [{ stream: accountStream(accountId), type: 'account.time_zone_set', data: { timeZone } }];
}

export interface RegisterAccount {
  accountId: string;
  /** The person agent made for this account; unused when the account becomes a person instance's own agent. */
  newAgentId: string;
  name: string;
  email?: string | undefined;
  emailDigest?: string | undefined;
  handle?: string | undefined;
  passwordHash: string;
}

interface RegisterAccountState {
  instance: InstanceState;
  account: AccountState;
  emailClaim: ClaimState;
  handleClaim: ClaimState;
}

/**
 * Sign-up. The first account on a fresh instance becomes its controller; on a person instance that
 * first account *is* the person the instance stands for, so it takes the primary agent as its own.
 */
export function decideRegisterAccount(cmd: RegisterAccount, s: RegisterAccountState): NewEvent[] {
  if (!s.instance.initialized || !s.instance.primaryAgentId)
    throw invalid('instance.not_initialized', 'the instance is not initialized yet');
  if (!cmd.email && !cmd.handle)
    throw invalid('account.identifier_required', 'an email or a handle is required');
  if (s.account.exists) throw conflict('account.exists', 'that account already exists');
  if (cmd.email && !cmd.emailDigest) throw invalid('account.email_digest_missing', 'email digest missing');
  if (cmd.email && s.emailClaim.claimed)
    throw conflict('account.email_taken', 'an account with that email already exists');

  const first = s.instance.controllers.length === 0;
  const becomesPrimary = first && s.instance.role === 'person';
  const agentId = becomesPrimary ? s.instance.primaryAgentId : cmd.newAgentId;

  const events: NewEvent[] = [];
  if (cmd.email && cmd.emailDigest)
    events.push({
      stream: emailStream(cmd.emailDigest),
      type: 'email.claimed',
      data: { accountId: cmd.accountId },
    });
  if (cmd.handle) events.push(decideClaimHandle(cmd.handle, agentId, s.handleClaim));
  if (becomesPrimary)
    // The person the instance stands for now has a name and a handle of their own.
    events.push({
      stream: agentStream(agentId),
      type: 'agent.profile_updated',
      data: { name: cmd.name, ...(cmd.handle && { handle: cmd.handle }) },
    });
  else
    events.push({
      stream: agentStream(agentId),
      type: 'agent.created',
      data: { agentId, kind: 'person', name: cmd.name, ...(cmd.handle && { handle: cmd.handle }) },
    });
  events.push({
    stream: accountStream(cmd.accountId),
    type: 'account.registered',
    data: {
      accountId: cmd.accountId,
      agentId,
      ...(cmd.email && { email: cmd.email }),
      ...(cmd.handle && { handle: cmd.handle }),
      passwordHash: cmd.passwordHash,
    },
  });
  if (first)
    events.push({
      stream: INSTANCE_STREAM,
      type: 'instance.controller_granted',
      data: { accountId: cmd.accountId, agentId, reason: 'first_account' },
    });
  return events;
}

export interface SessionState {
  exists: boolean;
  accountId?: string;
  ended: boolean;
}
export const initialSessionState = (): SessionState => ({ exists: false, ended: false });
export function evolveSession(state: SessionState, event: StoredEventLike): SessionState {
  if (event.type === 'session.started')
    return { exists: true, ended: false, accountId: (event.data as EventData<'session.started'>).accountId };
  if (event.type === 'session.ended') return { ...state, ended: true };
  return state;
}

interface StartSession {
  sessionId: string;
  tokenHash: string;
  expiresAt: string;
  /** Whether the password was checked and matched; the check itself (bcrypt) happens outside the domain. */
  passwordMatches: boolean;
}

export function decideStartSession(cmd: StartSession, account: AccountState): NewEvent[] {
  // Same code whether the account is unknown or the password wrong: no account enumeration.
  if (!account.exists || !account.accountId || !cmd.passwordMatches)
    throw unauthenticated('auth.invalid_credentials', 'wrong email, handle or password');
  if (account.disabled) throw forbidden('account.disabled', 'an operator disabled this account');
  return [
    {
      stream: sessionStream(cmd.sessionId),
      type: 'session.started',
      data: {
        sessionId: cmd.sessionId,
        accountId: account.accountId,
        tokenHash: cmd.tokenHash,
        expiresAt: cmd.expiresAt,
      },
    },
  ];
}

export function decideEndSession(
  sessionId: string,
  reason: 'sign_out' | 'expired' | 'revoked',
  session: SessionState,
): NewEvent[] {
  if (!session.exists || session.ended) return []; // signing out twice is not an error
  return [{ stream: sessionStream(sessionId), type: 'session.ended', data: { reason } }];
}
