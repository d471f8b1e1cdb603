// The tokens (agent access) area's error codes; docs/api.md's table is generated from these descriptions.
import type { ErrorCodeList } from '../shared/error-kind.js';

export const TOKENS_ERROR_CODES = {
  'token.not_found': { kinds: ['not_found'], description: 'no such token among yours' },
  'token.exists': { kinds: ['conflict'], description: 'a token with that id already exists' },
  'token.scopes_required': { kinds: ['invalid'], description: 'a token needs at least one scope' },
  'token.scope_invalid': { kinds: ['invalid'], description: 'a requested scope is not a scope' },
  'token.scope_not_grantable': {
    kinds: ['forbidden'],
    description: 'a requested scope is one you may not grant',
  },
  'token.session_required': { kinds: ['forbidden'], description: 'only a signed-in person may issue tokens' },
  'token.unavailable': { kinds: ['unavailable'], description: 'this process does not issue tokens' },
} as const satisfies ErrorCodeList;
