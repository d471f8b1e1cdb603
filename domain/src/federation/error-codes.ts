// The federation area's error codes: peers, signed requests and mutations, imports, the feed, the
// registry, queries and discovery, and following agents. docs/api.md's table is generated from these descriptions.
import type { ErrorCodeList } from '../shared/error-kind.js';

/** Said of a code an import reports per event in `results` rather than failing the request. */
const PER_EVENT = '— (import `results`, per event)';

export const FEDERATION_ERROR_CODES = {
  'federation.unavailable': {
    kinds: ['unavailable'],
    description: 'federation is not configured in this process',
  },
  'federation.global_only': { kinds: ['forbidden'], description: 'only the global instance may do this' },
  // Peer registry.
  'federation.bad_base_url': {
    kinds: ['invalid'],
    description: 'a peer base URL that is not an http(s) URL',
  },
  'federation.unsafe_url': {
    kinds: ['invalid'],
    description: 'a peer base URL that names a refused address',
  },
  'federation.unresolvable_url': {
    kinds: ['invalid'],
    description: 'the host of a peer base URL does not resolve',
  },
  'federation.bad_public_key': {
    kinds: ['invalid'],
    description: 'the public key is not 32 bytes of Ed25519 as unpadded base64url',
  },
  'federation.key_id_mismatch': {
    kinds: ['invalid'],
    description: 'the keyId does not belong to the public key',
  },
  'federation.key_is_ours': { kinds: ['invalid'], description: "that is this instance's own key" },
  'federation.key_in_use': { kinds: ['conflict'], description: 'another peer is registered with that key' },
  'federation.bad_key_history': {
    kinds: ['invalid'],
    description:
      "a peer's earlier keys are malformed: listed twice, out of order, or not matching their key id",
  },
  'federation.key_reused': { kinds: ['conflict'], description: 'a retired key cannot become current again' },
  'federation.secret_conflict': { kinds: ['invalid'], description: 'give a secret or ask for one, not both' },
  'federation.peer_is_self': {
    kinds: ['invalid'],
    description: 'an instance cannot register itself as a peer',
  },
  'federation.bad_page_limit': {
    kinds: ['invalid'],
    description: 'the operator’s peer list and status: `limit` must be a whole number from 1 to 200',
  },
  'federation.bad_cursor': {
    kinds: ['invalid'],
    description: 'the operator’s peer list and status: `after` is not the `next` cursor of a previous page',
  },
  'federation.peer_exists': { kinds: ['conflict'], description: 'that peer is already registered' },
  'federation.peer_not_found': { kinds: ['not_found'], description: 'no such peer' },
  'federation.peer_blocked': { kinds: ['forbidden'], description: 'that peer is blocked here' },
  // Calls to a peer.
  'federation.peer_unreachable': { kinds: ['unavailable'], description: 'the peer could not be reached' },
  'federation.peer_error': {
    kinds: ['unavailable'],
    description: 'the peer answered with an error or with something that is not JSON',
  },
  'federation.bad_manifest': { kinds: ['invalid'], description: "the peer's manifest is malformed" },
  'federation.bad_export_page': { kinds: ['invalid'], description: "the peer's export page is malformed" },
  // Signed requests.
  'federation.signature_required': { kinds: ['unauthenticated'], description: 'the request must be signed' },
  'federation.bad_signature': {
    kinds: ['unauthenticated'],
    description: 'the request signature does not verify',
  },
  'federation.digest_mismatch': {
    kinds: ['unauthenticated'],
    description: 'Content-Digest does not match the body',
  },
  'federation.unknown_peer': { kinds: ['unauthenticated'], description: 'no registered peer holds that key' },
  'federation.key_retired': {
    kinds: ['unauthenticated', 'invalid'],
    description: 'that key was rotated out; sign with the current one',
  },
  'federation.stale_request': {
    kinds: ['unauthenticated'],
    description: '`created` is not within the clock-skew window of now',
  },
  'federation.replayed_request': {
    kinds: ['unauthenticated'],
    description: 'that request was already received',
  },
  // Peer mutations.
  'federation.bad_mutation': { kinds: ['invalid'], description: 'the mutation envelope is malformed' },
  'federation.bad_mutation_signature': {
    kinds: ['unauthenticated'],
    description: 'the mutation signature does not verify',
  },
  'federation.key_revoked': {
    kinds: ['unauthenticated', 'invalid'],
    description: 'the peer revoked that key for what it signed at or after the revocation time',
  },
  'federation.bad_key_announcement': {
    kinds: ['invalid'],
    description:
      'a key rotation signed by a key that is no longer the current one, or a revocation signed by a key older than the one it revokes',
  },
  'federation.unknown_key': {
    kinds: ['unauthenticated', 'invalid'],
    description: "the signing key is not the peer's",
  },
  'federation.stale_mutation': {
    kinds: ['unauthenticated'],
    description: '`issuedAt` is not within the clock-skew window of now',
  },
  'federation.operation_not_allowed': {
    kinds: ['forbidden'],
    description: 'a peer may not run that operation',
  },
  'federation.replayed_mutation': { kinds: ['conflict'], description: 'that mutation was already applied' },
  'federation.replayed_nonce': {
    kinds: ['conflict', 'invalid'],
    description: 'that nonce was already used by this peer',
  },
  // Imports.
  'federation.bad_batch': {
    kinds: ['invalid'],
    description: 'the batch is not `{"events":[…]}` of UTF-8 JSON',
  },
  'federation.bad_push_range': {
    kinds: ['invalid'],
    description: "a push batch's `after` and `through` must be whole numbers with `after` < `through`",
  },
  'federation.batch_too_large': {
    kinds: ['too_large'],
    description: 'more events or bytes than an import batch may hold',
  },
  'federation.origin_mismatch': {
    kinds: ['invalid', 'forbidden'],
    description: 'the event or mutation was not issued by the peer that sent it',
    status: `403; ${PER_EVENT}`,
  },
  'federation.unknown_event_type': {
    kinds: ['invalid'],
    description: 'an event of a type we do not know',
    status: PER_EVENT,
  },
  'federation.not_federable': {
    kinds: ['invalid'],
    description: 'an event of a type that is not exchanged',
    status: PER_EVENT,
  },
  'federation.future_event': {
    kinds: ['invalid'],
    description: 'the event occurred in the future',
    status: PER_EVENT,
  },
  'federation.stale_event': {
    kinds: ['invalid'],
    description: 'the event is older than the replay window',
    status: PER_EVENT,
  },
  'federation.bad_event_data': {
    kinds: ['invalid'],
    description:
      "the event's data does not match its schema (a URL in it included); nothing of it is written",
    status: PER_EVENT,
  },
  'federation.foreign_agent': {
    kinds: ['invalid'],
    description: 'the event speaks of an agent that belongs to another instance',
    status: PER_EVENT,
  },
  'federation.foreign_actor': {
    kinds: ['invalid'],
    description: 'the event is attributed to an agent of another instance',
    status: PER_EVENT,
  },
  'federation.out_of_order': {
    kinds: ['invalid'],
    description: "a peer's event does not extend its stream",
    status: PER_EVENT,
  },
  'federation.equivocation': {
    kinds: ['invalid'],
    description: "a peer's second event at one stream version",
    status: PER_EVENT,
  },
  // Relaying through the global instance.
  'federation.own_event': {
    kinds: ['invalid'],
    description: 'a relayed event whose origin is this instance (it never needs its own events back)',
    status: PER_EVENT,
  },
  'federation.origin_key_unknown': {
    kinds: ['invalid'],
    description: "a relayed event whose origin's key is not known here and could not be learned",
    status: PER_EVENT,
  },
  'federation.key_not_announced': {
    kinds: ['invalid'],
    description: "an origin's manifest naming keys without a signature by the key pinned for it",
    status: `400; ${PER_EVENT}`,
  },
  'federation.origin_not_followed': {
    kinds: ['invalid'],
    description: 'a relayed event of an origin this instance does not follow',
    status: PER_EVENT,
  },
  'federation.origin_unknown': {
    kinds: ['not_found'],
    description: 'the relay has no manifest of that origin (not one of its peers)',
  },
  'federation.relay_unavailable': {
    kinds: ['unavailable'],
    description: 'no relay (a peer of role global) is registered, or it did not answer',
  },
  // Entity status probes.
  'federation.bad_probe': {
    kinds: ['invalid'],
    description: 'body: `{ entities: [{ kind: agent|event, id }] }`',
  },
  'federation.probe_too_large': { kinds: ['too_large'], description: 'more entities than a probe may hold' },
  // The feed, the registry, queries and discovery.
  'feed.bad_query': { kinds: ['invalid'], description: 'bad `since`/`limit`' },
  'feed.since_after_head': { kinds: ['invalid'], description: '`since` beyond the head of the log' },
  'registry.bad_query': { kinds: ['invalid'], description: 'bad `limit`, `after` or `origin`' },
  'registry.bad_agent_id': { kinds: ['invalid'], description: 'the agentId is not a UUID (versions 1 to 5)' },
  'registry.not_found': { kinds: ['not_found'], description: 'no such agent here' },
  'query.bad_query': { kinds: ['invalid'], description: 'bad `resource`, `limit` or `cursor`' },
  'query.bad_cursor': { kinds: ['invalid'], description: 'that cursor does not belong to this query' },
  'query.bad_type': { kinds: ['invalid'], description: '`type`: up to 10 public, federable event types' },
  'query.unknown_parameter': { kinds: ['invalid'], description: 'a query parameter that is not accepted' },
  'users_search.bad_query': {
    kinds: ['invalid'],
    description: 'q must be 1–100 characters; limit 1–50; cursor as a previous page gave it',
  },
  'users_search.rate_limited': {
    kinds: ['rate_limited'],
    description: 'a peer asked for too many user searches in the window; retry after the time given',
  },
  'discover.bad_cue': {
    kinds: ['invalid'],
    description: '`q` is not one identity cue of the allowed length',
  },
  'discover.email_requires_peer': {
    kinds: ['forbidden'],
    description: 'emails are resolved only for signed peer requests',
  },
  // Following agents (svc.agent.follow, unfollow, list_followed).
  'follow.unknown_agent': {
    kinds: ['not_found'],
    description: 'no agent known here answers to that (an agent id, @handle or @handle@host)',
  },
  'follow.self': { kinds: ['invalid'], description: 'an agent cannot follow itself' },
  'follow.already_following': { kinds: ['conflict'], description: 'that agent is followed already' },
  'follow.not_following': { kinds: ['conflict'], description: 'that agent is not followed' },
  'follow.too_many': { kinds: ['invalid'], description: 'an agent follows at most 5,000 agents' },
} as const satisfies ErrorCodeList;
