// The accounts area's error codes; docs/api.md's table is generated from these descriptions.
import type { ErrorCodeList } from '../shared/error-kind.js';

export const ACCOUNTS_ERROR_CODES = {
  'account.identifier_required': { kinds: ['invalid'], description: 'sign-up without email and handle' },
  'account.email_taken': { kinds: ['conflict'], description: 'an account with that email already exists' },
  'account.exists': { kinds: ['conflict'], description: 'an account with that id already exists' },
  'account.email_digest_missing': {
    kinds: ['invalid'],
    description: 'an email was given without its digest',
  },
  'account.required': {
    kinds: ['forbidden'],
    description:
      'a choice only a person with an account makes (not the static token, a peer or the instance)',
  },
  'account.signup_closed': {
    kinds: ['forbidden'],
    description: 'the operators closed sign-up on this instance (run-time setting `signupOpen`)',
  },
  'account.setup_code_required': {
    kinds: ['forbidden'],
    description:
      'the first account on an instance listening beyond loopback must give the setup code its start printed (`setupCode`)',
  },
  'account.setup_code_invalid': {
    kinds: ['forbidden'],
    description: 'the `setupCode` given is not the one the instance printed',
  },
  'account.disabled': {
    kinds: ['forbidden'],
    description:
      'an operator disabled this account: it cannot sign in (answered only after the right password)',
  },
  'account.is_operator': {
    kinds: ['conflict'],
    description: 'an operator’s account cannot be disabled; move or give up the operator role first',
  },
  'account.handle_reserved': {
    kinds: ['invalid'],
    description:
      'sign-up with a reserved handle (the built-in list, e.g. admin, root, support, or one the operators added)',
  },
  'account.time_zone_unknown': {
    kinds: ['invalid'],
    description:
      "a time zone that is not an IANA name of the list this instance offers (`Intl.supportedValuesOf('timeZone')`, plus `UTC`)",
  },
  'account.not_found': { kinds: ['not_found'], description: 'no account with that id, email or handle' },
} as const satisfies ErrorCodeList;
