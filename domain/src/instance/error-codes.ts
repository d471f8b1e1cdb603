// The instance area's error codes; docs/api.md's table is generated from these descriptions.
import type { ErrorCodeList } from '../shared/error-kind.js';

export const INSTANCE_ERROR_CODES = {
  'instance.not_initialized': {
    kinds: ['unavailable', 'invalid', 'unauthenticated'],
    description: 'the instance is starting (not initialized yet)',
  },
  'instance.already_initialized': {
    kinds: ['conflict'],
    description: 'this instance is already initialized',
  },
  'instance.key_mismatch': {
    kinds: ['invalid'],
    description: "the signing key is not the one the instance's log was initialized with",
  },
  'instance.role_mismatch': {
    kinds: ['invalid'],
    description: 'the configured role is not the one the instance was initialized with',
  },
  'instance.already_controller': {
    kinds: ['conflict'],
    description: 'that account already controls this instance',
  },
  'instance.not_controller': {
    kinds: ['not_found'],
    description: 'that account does not control this instance',
  },
  'instance.last_controller': {
    kinds: ['conflict'],
    description: 'an instance keeps at least one controller; grant another first',
  },
} as const satisfies ErrorCodeList;
