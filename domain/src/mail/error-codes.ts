// The mail area's error codes; docs/api.md's table is generated from these descriptions.
import type { ErrorCodeList } from '../shared/error-kind.js';

export const MAIL_ERROR_CODES = {
  'mail.unavailable': { kinds: ['unavailable'], description: 'mail is not composed in this process' },
  'mail.unknown_template': { kinds: ['invalid'], description: 'no mail template of that name here' },
  'mail.template_not_allowed': {
    kinds: ['forbidden'],
    description:
      'that template is not offered to this requester (e.g. a password reset is for local accounts only)',
  },
  'mail.bad_variables': {
    kinds: ['invalid'],
    description:
      'the variables are not those the template declares (missing, extra, too long, or not plain text)',
  },
  'mail.link_off_origin': {
    kinds: ['invalid'],
    description: "a link variable does not point at the requesting peer's own origin",
  },
  'mail.too_many_recipients': { kinds: ['invalid'], description: 'more recipients than a request may name' },
  'mail.bad_address': { kinds: ['invalid'], description: 'a recipient is not a single email address' },
  'mail.bad_request_key': { kinds: ['invalid'], description: 'the request key is missing or malformed' },
  'mail.request_key_reused': {
    kinds: ['conflict'],
    description: 'that request key was already used for a different message',
  },
  'mail.rate_limited': {
    kinds: ['rate_limited'],
    description:
      'too many messages for this peer or this recipient in the window; retry after the time given',
  },
  'mail.no_email': { kinds: ['invalid'], description: 'the account has no email address to verify' },
  'mail.token_exists': { kinds: ['conflict'], description: 'a token with that digest was already issued' },
  'mail.token_invalid': {
    kinds: ['invalid'],
    description: 'the verification or reset token is unknown, used, expired or for another purpose',
  },
} as const satisfies ErrorCodeList;
