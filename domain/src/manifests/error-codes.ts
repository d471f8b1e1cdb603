// The manifests area's error codes; docs/api.md's table is generated from these descriptions.
import type { ErrorCodeList } from '../shared/error-kind.js';

export const MANIFESTS_ERROR_CODES = {
  'manifest.unknown_kind': {
    kinds: ['not_found'],
    description: 'no universal manifests of that kind here (kinds: person, organization, site, world)',
  },
  'manifest.malformed_id': {
    kinds: ['invalid'],
    description: 'the entity id is not a UUID',
  },
  'manifest.not_found': {
    kinds: ['not_found'],
    description: 'no such entity here, or its owner does not publish its manifest',
  },
  'manifest.not_an_agent_manifest': {
    kinds: ['invalid'],
    description: 'only a person, persona, group, locale or region agent has a publication flag',
  },
} as const satisfies ErrorCodeList;
