// The connected external-assistant account's error codes; docs/api.md's table is generated from these.
import type { ErrorCodeList } from '../shared/error-kind.js';

export const ASSISTANT_ACCOUNT_ERROR_CODES = {
  'assistant.provider_not_configured': {
    kinds: ['unavailable'],
    description:
      'no external assistant provider is configured here (ASSISTANT_PROVIDER_*), or not the endpoint this needs; `missing` names it',
  },
  'assistant.provider_error': {
    kinds: ['unavailable'],
    description:
      'the external provider could not be reached or answered something unusable; `providerError`, `status` or `reason` say which',
  },
  'assistant.sign_in_not_found': {
    kinds: ['not_found'],
    description: 'no such device sign-in pending for this agent (unknown, finished, replaced or not yours)',
  },
  'assistant.sign_in_denied': {
    kinds: ['forbidden'],
    description: 'the person refused the sign-in at the provider (RFC 8628 `access_denied`)',
  },
  'assistant.sign_in_expired': {
    kinds: ['invalid'],
    description: 'the device code ran out before it was approved (RFC 8628 `expired_token`); start again',
  },
  'assistant.account_not_connected': {
    kinds: ['not_found'],
    description: 'this agent has no connected external-assistant account',
  },
  'assistant.account_reconnect_needed': {
    kinds: ['conflict'],
    description:
      'the provider no longer accepts the connection (refresh refused, token rejected) or its secrets cannot be read with the current key; disconnect and sign in again',
  },
} as const satisfies ErrorCodeList;
