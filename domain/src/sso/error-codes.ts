// Single sign-on's error codes; docs/api.md's table is generated from these descriptions.
import type { ErrorCodeList } from '../shared/error-kind.js';

export const SSO_ERROR_CODES = {
  'sso.assertion_rejected': {
    kinds: ['unauthenticated'],
    description:
      'the sign-on assertion was not accepted (malformed, oversized, another audience, an issuer not allowed to issue, expired, a bad signature, already used, or no local agent for the person); the precise reason is only in the log',
  },
  'sso.assertion_replayed': {
    kinds: ['conflict'],
    description:
      'internal: the assertion’s nonce was already burned here (answered as `sso.assertion_rejected`)',
  },
  'sso.password_held_at_home': {
    kinds: ['conflict'],
    description:
      'this account’s password is held by its home (global) instance on a delegating instance: reset it there (`details.forgotPasswordUrl`); nothing was changed',
  },
  'sso.unknown_audience': {
    kinds: ['invalid'],
    description: 'an assertion is issued only for a registered, unblocked peer’s origin',
  },
  'sso.credential_in_query': {
    kinds: ['invalid'],
    description:
      'credentials (an assertion, a password) are accepted in a JSON body only, never in the query string',
  },
  'sso.peer_request_required': {
    kinds: ['forbidden'],
    description:
      'this route answers signed peer requests only; a session cookie or a bearer token is refused',
  },
  'sso.password_rejected': {
    kinds: ['unauthenticated'],
    description: 'the password check said no (the same answer for an unknown account and a wrong password)',
  },
  'sso.global_unreachable': {
    kinds: ['unavailable'],
    description: 'the global instance could not be reached; retry after `Retry-After` seconds',
  },
  'sso.request_key_reused': {
    kinds: ['conflict'],
    description: 'that request key was already used for a different request',
  },
  'sso.no_home_instance': {
    kinds: ['invalid'],
    description:
      'the session hand-off names no instance (`to`) and no home instance is recorded for this person here',
  },
  'sso.account_already_linked': {
    kinds: ['conflict'],
    description:
      'the account is already linked to another person’s agent at the global instance (a link is made once; the same link made meanwhile by another sign-in is success)',
  },
  'sso.agent_already_linked': {
    kinds: ['conflict'],
    description:
      'the person’s agent at the global instance is already linked to another local account here (one account per person); sign in with that account',
  },
} as const satisfies ErrorCodeList;
