// The agents area's error codes; docs/api.md's table is generated from these descriptions.
import type { ErrorCodeList } from '../shared/error-kind.js';

export const AGENTS_ERROR_CODES = {
  'agent.not_found': { kinds: ['not_found'], description: 'the agent does not exist or is not yours' },
  'agent.not_a_persona': { kinds: ['invalid'], description: 'only a persona can be deleted' },
  'agent.handle_taken': { kinds: ['conflict'], description: 'another agent holds that handle' },
  'agent.persona_cannot_own': { kinds: ['invalid'], description: 'a persona cannot own personas' },
} as const satisfies ErrorCodeList;
