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
  'instance.key_unknown': {
    kinds: ['not_found'],
    description: 'no key of this instance has that key id',
  },
  'instance.key_is_current': {
    kinds: ['conflict'],
    description: 'the current signing key cannot be revoked; rotate to a new key first',
  },
  'instance.key_already_revoked': {
    kinds: ['conflict'],
    description: 'that key is already revoked',
  },
  'instance.key_exists': {
    kinds: ['conflict'],
    description: "that key is already one of this instance's keys",
  },
  'instance.bad_key_window': {
    kinds: ['invalid'],
    description: 'the overlap or revocation time is out of range',
  },
  'instance.keys_unavailable': {
    kinds: ['unavailable'],
    description: 'this process holds no key folder to write a new signing key to',
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
  'instance.bad_setting': {
    kinds: ['invalid'],
    description: 'a run-time setting’s value is not allowed (`details.setting` names it)',
  },
} as const satisfies ErrorCodeList;
