// The site builder's error codes; docs/api.md's table is generated from these descriptions.
import type { ErrorCodeList } from '../shared/error-kind.js';

export const BUILDER_ERROR_CODES = {
  'builder.site_not_found': { kinds: ['not_found'], description: 'the site does not exist or is not yours' },
  'builder.draft_stale': {
    kinds: ['conflict'],
    description: 'the draft changed since the revision you edited; `currentRevision` is in the details',
  },
  'builder.draft_too_large': { kinds: ['too_large'], description: 'the draft is over its stated limits' },
  'builder.unsafe_content': {
    kinds: ['invalid'],
    description:
      'a field holds a script, an event handler, or a link that is not http(s), mailto or a site path',
  },
  'builder.unknown_reference': {
    kinds: ['invalid'],
    description: 'the draft names a media item or form the owner does not hold',
  },
  'builder.version_not_found': {
    kinds: ['not_found'],
    description: 'no such version of this site',
  },
  'builder.site_suspended': {
    kinds: ['forbidden'],
    description: 'the site is suspended by an operator; `reason` is in the details',
  },
} as const satisfies ErrorCodeList;
