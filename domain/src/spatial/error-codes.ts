// The spatial area's error codes, the travellers' with them (their own file); docs/api.md's table is
// generated from these descriptions.
import type { ErrorCodeList } from '../shared/error-kind.js';
import { TRAVELLER_ERROR_CODES } from './traveller-error-codes.js';

export const SPATIAL_ERROR_CODES = {
  'spatial.id_invalid': {
    kinds: ['invalid'],
    description: 'a world, spatial, view, portal or node id in the path is malformed; `field` says which',
  },
  'spatial.world_not_found': {
    kinds: ['not_found'],
    description: 'no such world (or, for an edit, not one of yours)',
  },
  'spatial.no_primary_world': {
    kinds: ['not_found'],
    description: 'this instance hosts no public world to serve at /wow/world',
  },
  'spatial.spatial_not_found': { kinds: ['not_found'], description: 'no public spatial graph with this id' },
  'spatial.view_not_found': { kinds: ['not_found'], description: 'no such view' },
  'spatial.portal_not_found': { kinds: ['not_found'], description: 'no such portal' },
  'spatial.node_not_found': {
    kinds: ['not_found'],
    description: 'no node with this id in the latest revision of the graph',
  },
  'spatial.graph_invalid': {
    kinds: ['invalid'],
    description:
      'the graph is not a consistent forest (duplicate id, unknown parent or child, a parent not listing its child); `reason` and `nodeId` say where',
  },
  'spatial.graph_cycle': {
    kinds: ['invalid'],
    description: 'following parents from `nodeId` comes back to it',
  },
  'spatial.graph_too_large': {
    kinds: ['too_large'],
    description: 'the graph is over its stated node count, depth or size; `limit` is in the details',
  },
  'spatial.graph_stale': {
    kinds: ['conflict'],
    description: 'the graph changed since the revision you edited; `currentRevision` is in the details',
  },
  'spatial.view_name_taken': {
    kinds: ['conflict'],
    description: 'this world already has a view of that name',
  },
  'spatial.too_many': {
    kinds: ['too_large'],
    description: 'the world already has as many views or portals as allowed; `what` and `limit` say which',
  },
  'spatial.portal_destination_unknown': {
    kinds: ['invalid'],
    description: 'the portal leads to no public world of this instance (or its view does not exist)',
  },
  'spatial.peer_not_registered': {
    kinds: ['invalid'],
    description: 'the portal leads to an instance that is not a registered peer',
  },
  'spatial.state_too_large': {
    kinds: ['too_large'],
    description: 'the node state is over its size limit (4,096 bytes of JSON)',
  },
  'spatial.world_not_public': {
    kinds: ['invalid'],
    description: 'only a public world can be the primary world or carry a tag',
  },
  'spatial.tag_scheme_unknown': {
    kinds: ['invalid'],
    description: 'no such tag scheme; `schemes` lists those there are (url, nfc)',
  },
  'spatial.tag_invalid': {
    kinds: ['invalid'],
    description: 'the tag id is not of its scheme’s form (url: an https URL; nfc: a 4, 7 or 10 byte hex UID)',
  },
  'spatial.tag_taken': { kinds: ['conflict'], description: 'this tag is registered to someone else' },
  'spatial.tag_not_found': { kinds: ['not_found'], description: 'no such tag (among yours, for an edit)' },
  'spatial.tag_target_not_found': {
    kinds: ['invalid'],
    description: 'the tag’s target is not a public object of yours on this instance',
  },
  ...TRAVELLER_ERROR_CODES,
} as const satisfies ErrorCodeList;
