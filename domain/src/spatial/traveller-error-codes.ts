// The error codes of travellers and presence (docs/spatial.md#travellers); docs/api.md's table is
// generated from these descriptions. Kept apart from the worlds' list so the two halves of the area
// evolve without touching each other's file.
import type { ErrorCodeList } from '../shared/error-kind.js';

export const TRAVELLER_ERROR_CODES = {
  'spatial.traveller_not_a_person': {
    kinds: ['invalid'],
    description: 'only a person or one of their personas travels; act as one (targetAgentId)',
  },
  'spatial.presentation_invalid': {
    kinds: ['invalid'],
    description:
      'the body is not a traveller presentation (docs/spatial.md#presentations), or its lifetime is over the limit; `issues` says where',
  },
  'spatial.presentation_wrong_audience': {
    kinds: ['forbidden'],
    description: 'the presentation is bound to another instance (`audience.instance` is not this one)',
  },
  'spatial.presentation_expired': {
    kinds: ['unauthenticated'],
    description: 'the presentation is past its `expiresAt` (or issued in the future beyond the clock skew)',
  },
  'spatial.presentation_unknown_issuer': {
    kinds: ['unauthenticated'],
    description:
      'the issuer is neither this instance nor a registered, unblocked peer at that base URL, or the key is not one of its keys',
  },
  'spatial.presentation_bad_signature': {
    kinds: ['unauthenticated'],
    description: "the presentation's signature does not verify under the issuer's registered key",
  },
  'spatial.presentation_replayed': {
    kinds: ['conflict'],
    description: 'this presentation (its issuer and nonce) was already presented here',
  },
  'spatial.presence_not_found': {
    kinds: ['not_found'],
    description: 'nobody is present under this receipt id or subject (unknown, or the presence expired)',
  },
} as const satisfies ErrorCodeList;
