// Refusals in words for what passes between instances (docs/web.md#errors): signed requests and changes,
// imported events, the relay, the public feed, registry and queries, looking people up and following
// them. An operator meets most of them as a peer's last error on the Peers page (a peer's refusal
// carries its own code there), a person as the outcome of an assistant's or an agent's step, anyone as
// the page a browser gets from one of these addresses. The registering of peers has its words in
// error-words-instance.ts. The entries are sentences that stand without the refusal's message, since a
// step's outcome keeps only its code. The code stays beside them in small print.
import type { WordsTable } from './error-words-kit.js';

const askPeer =
  'If it keeps happening, ask the peer’s operator (the two instances may run different versions).';
const clocks = 'Check that the clocks of both instances are right, then try again.';

export const FEDERATION_ERROR_WORDS: WordsTable = {
  'federation.global_only':
    'Only the global instance, which the others federate into, can do this. Do it there, or ask its operator.',
  'federation.bad_public_key':
    'That is not a peer’s public key: it is 43 characters of letters, digits, - and _. Copy it again from the peer’s operator (tributary federation identity prints it).',
  'federation.peer_blocked':
    'One of the two instances has blocked the other, so nothing is exchanged between them. If the peer is blocked here, unblock it on the Peers page; otherwise ask its operator.',
  'federation.peer_error': `The peer answered with an error, or with something that could not be read. Try again later. ${askPeer}`,
  'federation.bad_export_page': `The peer sent a page of events that could not be read, so none of it was taken. Try again later. ${askPeer}`,
  // Signed requests.
  'federation.signature_required':
    'This address answers only requests signed by a registered peer, and this one was not signed. It is for instances, not for a browser.',
  'federation.bad_signature':
    'The signature on a request between the instances did not check out, so it was refused. One side probably has an old key of the other: compare the keys registered on both sides.',
  'federation.digest_mismatch':
    'A request between the instances was changed on the way (its body no longer matches what was signed), so it was refused. Try again; if it keeps happening, look for a proxy that alters requests.',
  'federation.unknown_peer':
    'The request was signed with a key that no registered peer holds. Each instance must register the other as a peer, with its current key.',
  'federation.key_retired':
    'That key was replaced by a newer one, so what it signs is refused now. If the instance already signs with its new key, update its key where it is registered as a peer.',
  'federation.stale_request': `A request between the instances was signed too long ago, or by a clock that is far off, so it was refused. ${clocks}`,
  'federation.replayed_request':
    'That exact request had been received before, so the copy was refused. Nothing needs doing: the first one counted.',
  // Changes a peer asks for.
  'federation.bad_mutation': `A change a peer sent could not be read, so it was not made. ${askPeer}`,
  'federation.bad_mutation_signature':
    'The signature on a change a peer sent did not check out, so it was not made. Compare the key registered for that peer with its current key.',
  'federation.key_revoked':
    'That key was revoked, so what it signed since is refused. Sign with the instance’s current key.',
  'federation.bad_key_announcement':
    'A change of keys was not signed by the right key (the current key for a rotation, an older key for a revocation), so it was refused. Ask the peer’s operator to announce it again.',
  'federation.unknown_key':
    'The change was signed with a key that is not one of the peer’s known here. If the peer rotated its key, update it on the Peers page; otherwise ask its operator.',
  'federation.stale_mutation': `A change a peer sent was signed too long ago, or by a clock that is far off, so it was not made. ${clocks}`,
  'federation.operation_not_allowed':
    'A peer may not ask this instance for that, so it was not done. Only a person signed in here can do it.',
  'federation.replayed_mutation':
    'That change had been made already, so it was not made twice. Nothing needs doing.',
  'federation.replayed_nonce':
    'That request carried a one-time number its peer had used before, so it was refused. Send it again: a new request gets a new number.',
  // Events a peer sends.
  'federation.bad_batch': `A batch of events from a peer could not be read, so none of it was taken. ${askPeer}`,
  'federation.bad_push_range': `A batch of events from a peer named an impossible range of events, so it was refused. ${askPeer}`,
  'federation.batch_too_large':
    'A peer sent more events at once than this instance takes in one batch, so none of them was taken. Ask the peer’s operator to check its batch size.',
  'federation.origin_mismatch':
    'A peer sent an event or a change that another instance issued, and a peer may send only its own, so it was refused. Ask the peer’s operator.',
  'federation.unknown_event_type':
    'A peer sent an event of a kind this instance does not know (the peer may run a newer version), so it was left out. Updating this instance lets it take them.',
  'federation.not_federable':
    'A peer sent an event of a kind that instances do not exchange, so it was left out. Ask the peer’s operator.',
  'federation.future_event': `A peer sent an event dated in the future, so it was left out. ${clocks}`,
  'federation.stale_event':
    'A peer sent an event older than this instance accepts, so it was left out. If many are, ask the peer’s operator why they arrive so late.',
  'federation.bad_event_data': `A peer sent an event whose contents do not fit its kind, so nothing of it was written. ${askPeer}`,
  'federation.foreign_agent':
    'A peer sent an event about someone who belongs to another instance, which only that instance may send, so it was left out. Ask the peer’s operator.',
  'federation.foreign_actor':
    'A peer sent an event said to be done by someone of another instance, so it was left out. Ask the peer’s operator.',
  'federation.out_of_order': `A peer sent an event that does not follow on from the ones received from it before, so it was left out. ${askPeer}`,
  'federation.equivocation':
    'A peer sent two different events for the same place in its history, so the second was refused. That should never happen: tell the peer’s operator.',
  // Relaying through the global instance.
  'federation.own_event':
    'The relay sent back an event of this instance’s own, which it never needs, so it was left out. Nothing needs doing.',
  'federation.origin_key_unknown':
    'A relayed event comes from an instance whose key is not known here and could not be learned, so it was left out. Check that the instance it came from can be reached.',
  'federation.key_not_announced':
    'An instance’s manifest names keys that the key known for it did not sign, so they are not trusted. Ask that instance’s operator to announce the change of keys with its earlier key.',
  'federation.origin_not_followed':
    'A relayed event comes from an instance this one does not follow, so it was left out. Follow someone there to receive its events.',
  'federation.origin_unknown':
    'The relay does not know that instance: it is not one of the relay’s peers. Check the address, or ask the relay’s operator to register it.',
  'federation.relay_unavailable':
    'No relay (the global instance this one federates into) is registered, or it did not answer. Register the global instance as a peer, or try again later.',
  'federation.bad_probe':
    'The question of which people or events still exist was not asked in the form this address takes. It is for instances, not for a browser.',
  'federation.probe_too_large':
    'That asked about more people or events at once than is allowed. Ask about fewer at a time.',
  // The feed, the registry, queries and looking people up.
  'feed.bad_query':
    'The feed cannot use that since or limit: since is a whole number from 0, limit one from 1 to 500. Correct the address, like ?since=0&limit=100.',
  'feed.since_after_head':
    'The feed was asked for what came after a point it has not reached yet. Ask from an earlier point: since=0 reads from the start.',
  'registry.bad_query':
    'The list of people cannot use that limit, after or origin. Correct the address, or start again from the first page.',
  'registry.bad_agent_id':
    'That is not an id anyone could have here (an id is a UUID of 36 characters). Check the address.',
  'registry.not_found':
    'Nobody with that id is here: they may have been deleted, or belong to another instance. Check the address.',
  'query.bad_query':
    'The query cannot use that resource, limit or cursor. Correct the address, or start again from the first page.',
  'query.bad_cursor': 'That link to a next page belongs to another query. Start again from the first page.',
  'query.bad_type':
    'The query can filter on at most 10 event types, each a public one that instances exchange. Check the types and ask again.',
  'query.unknown_parameter': 'The query has a parameter it does not take. Remove it and ask again.',
  'users_search.bad_query':
    'A search for people takes 1 to 100 characters (and a limit from 1 to 50). Change the search and try again.',
  'users_search.rate_limited':
    'Too many searches for people came from there just now. Wait a minute and search again.',
  'discover.bad_cue':
    'That is not something to look someone up by. Give one email address, handle, id or domain, and try again.',
  'discover.email_requires_peer':
    'Nobody is looked up by email address here except for another instance’s signed request, so that addresses are not given away. Look them up by handle instead.',
  // Following.
  'follow.unknown_agent':
    'Nobody known here answers to that. Write @handle for someone here or @handle@host for someone elsewhere, and check the spelling.',
  'follow.self': 'An identity cannot follow itself. Choose someone else to follow.',
  'follow.already_following': 'You follow them already, so nothing changed.',
  'follow.not_following': 'You do not follow them, so there was nothing to stop.',
  'follow.too_many': 'You follow as many as anyone may (5,000). Stop following someone first.',
};
