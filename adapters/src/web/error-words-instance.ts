// Refusals in words for what any page can meet (the request itself, the database, a bug) and for the
// operator's pages: the instance's keys and settings, and its peers (docs/web.md#errors). The code
// stays beside them in small print. An operator reads more of the API's reason than a visitor does, so
// the peers' refusals keep it in brackets.
import { because, waitWords, type WordsTable } from './error-words-kit.js';

const peerAddress = 'Check the address, or try again later.';

export const REQUEST_ERROR_WORDS: WordsTable = {
  'input.invalid': 'Something in the form is not right. Check what you typed, change it and send it again.',
  'log.stream_conflict':
    'Someone else changed the same thing at the same moment, so this was not saved. Reload the page and try again.',
  'log.outcome_unknown':
    'The instance lost its database while saving, so it cannot tell whether this was saved. Reload the page to see, and do it again only if it is not there.',
  'server.internal':
    'Something went wrong on this instance (a fault of ours, not yours). Try again; if it keeps happening, tell its operator the error code below and the time.',
  'service.unavailable':
    'This instance cannot reach its database just now, so nothing was changed. Try again in a few seconds.',
  'instance.not_initialized': 'This instance is still starting. Try again in a few seconds.',
  'request.rate_limited': (e) =>
    `Too many requests came from your address just now, so this one was not answered. Try again ${waitWords(e)}.`,
  'request.too_large':
    'What was sent is more than this instance takes at once. Send less (a smaller file or a shorter text) and try again.',
  'request.aborted': 'What was sent did not arrive whole. Try again.',
  'request.timeout': 'Your browser took too long to send the request. Try again.',
  'request.headers_too_large':
    'Your browser sent too much with the request (often too many cookies). Clear this site’s cookies and try again.',
  'request.bad_bytes':
    'The address or the form held characters that cannot be read. Check what you typed and try again.',
  'request.cross_origin':
    'This form was sent from another site, so it was refused. Open the page on this site and send it from there.',
  'route.not_found': 'There is nothing at this address. It may have moved, or the link is wrong.',
  'route.method_not_allowed': 'This address exists, but not for what your browser asked of it.',
};

export const OPERATOR_ERROR_WORDS: WordsTable = {
  'instance.key_unknown': 'This instance has no key with that id. Reload the page to see its keys.',
  'instance.key_is_current':
    'The key in use cannot be revoked. Rotate to a new key first, then revoke this one.',
  'instance.key_already_revoked': 'That key is revoked already. Reload the page to see the keys.',
  'instance.key_exists': 'That key is already one of this instance’s keys.',
  'instance.bad_key_window': (e) =>
    `That time is out of range (${because(e)}). Choose a time within the limits shown.`,
  'instance.keys_unavailable':
    'This process keeps no key folder, so it cannot make a new key here. Run tributary keys rotate where the instance runs.',
  'instance.already_controller': 'That account is an operator already.',
  'instance.not_controller': 'That account is not an operator of this instance.',
  'instance.last_controller': 'An instance keeps at least one operator. Make someone else an operator first.',
  'instance.bad_setting': (e) =>
    `That setting cannot take this value (${because(e)}). Change it and save again.`,
  'federation.unavailable':
    'Federation does not run in this process, so peers cannot be managed from here. Use the instance’s main process.',
  'federation.bad_base_url': (e) =>
    `That is not a peer address we can use (${because(e)}). Write its base URL, like https://peer.example.`,
  'federation.unsafe_url':
    'That address points at a private or local network, which this instance does not call. Use the peer’s public address.',
  'federation.unresolvable_url':
    'That host name does not resolve: no DNS record was found for it. Check the address.',
  'federation.key_id_mismatch':
    'The key id typed is not the id of the key in the peer’s manifest. Check it with the peer’s operator (tributary federation identity prints it) and type it again.',
  'federation.key_is_ours': 'That key is this instance’s own key, not a peer’s. Check the address.',
  'federation.key_in_use':
    'Another peer is registered with that key already. Look for it in the list of peers.',
  'federation.bad_key_history': (e) =>
    `The peer’s list of earlier keys cannot be used (${because(e)}). Ask its operator to check its keys.`,
  'federation.key_reused':
    'A key the peer gave up cannot become its current key again. Ask its operator to rotate to a new key.',
  'federation.secret_conflict': 'Give a shared secret or ask for a new one, not both.',
  'federation.peer_is_self': 'That is this instance itself: an instance cannot be its own peer.',
  'federation.peer_exists': 'That peer is registered already. Look for it in the list of peers.',
  'federation.peer_not_found':
    'That peer is not registered here (any more). Reload the page to see the list.',
  'federation.bad_page_limit':
    'That page of peers cannot be shown: a page holds 1 to 200 peers. Go back to the first page.',
  'federation.bad_cursor': 'That link to a page of peers does not work any more. Go back to the first page.',
  'federation.bad_manifest': (e) =>
    `The manifest at that address cannot be used (${because(e)}). Check the address, or ask the peer’s operator.`,
  'federation.peer_unreachable': (e) => `The peer could not be reached (${because(e)}). ${peerAddress}`,
  'outbound.bad_url':
    'That address cannot be called: it must start with https:// or http:// and hold no user name or password.',
  'outbound.unsafe_url':
    'That address points at a private or local network, which this instance does not call. Use a public address.',
  'outbound.unresolvable_host':
    'That host name does not resolve: no DNS record was found for it. Check the address.',
  'outbound.unreachable': (e) => `It could not be reached (${because(e)}). ${peerAddress}`,
  'outbound.redirect_refused':
    'It answered with a redirect, which this instance does not follow. Use the address it redirects to.',
  'outbound.too_many_redirects':
    'It answered with too many redirects. Use the address it finally redirects to.',
  'outbound.timeout': `It did not answer in time. ${peerAddress}`,
  'outbound.too_large': 'Its answer was bigger than this instance reads, so it was not used.',
};
