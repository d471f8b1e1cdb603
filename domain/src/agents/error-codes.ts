// The agents area's error codes; docs/api.md's table is generated from these descriptions.
import type { ErrorCodeList } from '../shared/error-kind.js';

export const AGENTS_ERROR_CODES = {
  'agent.not_found': { kinds: ['not_found'], description: 'the agent does not exist or is not yours' },
  'agent.not_a_persona': { kinds: ['invalid'], description: 'only a persona can be deleted' },
  'agent.handle_taken': { kinds: ['conflict'], description: 'another agent holds that handle' },
  'agent.persona_cannot_own': { kinds: ['invalid'], description: 'a persona cannot own personas' },
  'follow.unknown_agent': {
    kinds: ['not_found'],
    description: 'no agent known here answers to that (an agent id, @handle or @handle@host)',
  },
  'follow.self': { kinds: ['invalid'], description: 'an agent cannot follow itself' },
  'follow.already_following': { kinds: ['conflict'], description: 'that agent is followed already' },
  'follow.not_following': { kinds: ['conflict'], description: 'that agent is not followed' },
  'follow.too_many': { kinds: ['invalid'], description: 'an agent follows at most 5,000 agents' },
} as const satisfies ErrorCodeList;
