// Refusals in words for hosted worlds and travellers (the spatial area), signed manifests and payments
// (docs/web.md#errors). No page of their own shows them yet: a person meets them as the outcome of an
// assistant's or an agent's step (which keeps only the code, so every entry is a sentence that stands
// without the refusal's message), and anyone as the page a browser gets from /wow/* and the like.
// The code stays beside them in small print.
import type { WordsTable } from './error-words-kit.js';

const pass = 'Ask your home instance for a new pass and try again.';

export const SPATIAL_ERROR_WORDS: WordsTable = {
  'spatial.id_invalid':
    'That address names a world, view, portal or part of a world by an id that cannot be one. Check the link.',
  'spatial.world_not_found':
    'That world does not exist, or it is not yours. It may have been deleted: check the link, or list your worlds.',
  'spatial.no_primary_world':
    'This instance has no public world to show here yet. Its operator can make a world public and choose it as the primary world.',
  'spatial.spatial_not_found': 'There is no public world map with that id. Check the link.',
  'spatial.view_not_found':
    'That view of the world does not exist (any more). List the world’s views to see those there are.',
  'spatial.portal_not_found':
    'That portal does not exist (any more). List the world’s portals to see those there are.',
  'spatial.node_not_found':
    'That part of the world is not in its latest version. Load the world again and try again.',
  'spatial.graph_invalid':
    'The world’s layout does not hold together: a part is listed twice, or names a parent or a child that is not there. Fix that part and save again.',
  'spatial.graph_cycle':
    'The world’s layout goes round in a circle: a part ends up inside itself. Give it another parent and save again.',
  'spatial.graph_too_large':
    'The world’s layout is too big: too many parts, nested too deep, or too long. Make it smaller and save again.',
  'spatial.graph_stale':
    'The world was changed (by someone else, or by you elsewhere) since this version was loaded, so the change was not saved. Load it again and make the change again.',
  'spatial.view_name_taken': 'This world already has a view of that name. Choose another name.',
  'spatial.too_many': 'This world already has as many views or portals as it may. Remove one first.',
  'spatial.portal_destination_unknown':
    'The portal would lead nowhere: there is no public world (or no such view) there on this instance. Choose a public world to lead to.',
  'spatial.peer_not_registered':
    'The portal leads to an instance that is not a peer of this one. Ask this instance’s operator to register it as a peer, or choose another destination.',
  'spatial.state_too_large': 'That state is too big to keep: at most 4,096 bytes. Keep less in it.',
  'spatial.world_not_public':
    'Only a public world can be the primary world or carry a tag. Make the world public first.',
  'spatial.tag_scheme_unknown':
    'That kind of tag is not known here. Use a web address (url) or an NFC tag (nfc).',
  'spatial.tag_invalid':
    'That tag is not written as its kind needs: a web address starting with https://, or an NFC tag’s id of 4, 7 or 10 bytes in hex. Correct it and try again.',
  'spatial.tag_taken': 'That tag is registered to someone else already. Use another tag.',
  'spatial.tag_not_found': 'That tag is not among yours (any more). List your tags to see them.',
  'spatial.tag_target_not_found':
    'A tag can lead only to a public world or thing of yours on this instance, and that is not one. Choose one of yours that is public.',
  // Travellers and presence.
  'spatial.traveller_not_a_person':
    'Only a person, or one of their identities, can travel into a world. Act as yourself or as one of your identities.',
  'spatial.presentation_invalid': `The pass that says who is travelling could not be read, or it lasts longer than allowed. ${pass}`,
  'spatial.presentation_wrong_audience': `That traveller’s pass was made for another instance, so it is not accepted here. ${pass}`,
  'spatial.presentation_expired': `That traveller’s pass has run out (or is dated in the future). ${pass}`,
  'spatial.presentation_unknown_issuer':
    'The traveller’s pass comes from an instance this one does not know (not a registered peer, or not with that key), so it is not accepted. The operator here can register that instance as a peer.',
  'spatial.presentation_bad_signature': `The traveller’s pass is not signed by its home instance’s key, so it is not accepted. ${pass}`,
  'spatial.presentation_replayed': `That traveller’s pass was used here already, and each is used once. ${pass}`,
  'spatial.presence_not_found':
    'Nobody is present under that receipt: it is unknown, or the visit has ended. Arrive again to be present.',
};

export const MANIFEST_ERROR_WORDS: WordsTable = {
  'manifest.unknown_kind':
    'There are no manifests of that kind here: the kinds are person, organization, site and world. Check the address.',
  'manifest.malformed_id': 'That is not an id a manifest could have (an id is a UUID). Check the address.',
  'manifest.not_found':
    'There is no such manifest here: it does not exist, or its owner does not publish it. Check the address, or ask its owner.',
  'manifest.not_an_agent_manifest':
    'Only a person, an identity, a group, a locale or a region can choose whether its manifest is published. Choose one of those.',
};

export const PAYMENT_ERROR_WORDS: WordsTable = {
  'payments.disabled':
    'Payments are not set up on this instance, so no money can be taken or paid out. Ask its operator.',
  'payments.amount_invalid':
    'That amount cannot be used: amounts are whole numbers in the currency’s smallest unit (cents), from 1 to 99,999,999. Correct it and try again.',
  'payments.currency_unknown':
    'That currency cannot be used. Write its three-letter code in lower case, like eur or usd.',
  'payments.line_items_invalid':
    'The things to pay for are not right: there are 1 to 20, each with a name of up to 120 characters and a quantity from 1 to 999. Correct them and try again.',
  'payments.url_off_instance':
    'The address to come back to after paying must be a page of this instance. Change it and try again.',
  'payments.idempotency_key_invalid':
    'That payment reference cannot be used: it is 8 to 64 letters, digits, - or _. Change it and try again.',
  'payments.idempotency_key_reused':
    'That payment reference was already used for a different payment, so nothing was done. Give a new payment a new reference.',
  'payments.country_required':
    'Say which country the seller is in (two letters, like DE or GB) to set up getting paid: it is never guessed.',
  'payments.no_connected_account':
    'The seller has not set up getting paid yet, so nothing can be paid to them. They have to set it up first.',
  'payments.seller_not_ready':
    'The seller has not finished setting up getting paid, so no payment can be taken for them yet. They have to finish it first.',
  'payments.obligation_unknown':
    'No payment was expected under that reference, so it cannot be settled. Check the reference.',
  'payments.obligation_mismatch':
    'The payment does not match what was expected (its amount, currency or seller differs), so it was refused. Check it against the order.',
  'payments.receipt_not_found':
    'There is no such payment among those you may refund. Check which payment it was.',
  'payments.refund_exceeds_remaining':
    'That refund is more than what is left of the payment. Refund at most what remains.',
  'payments.payout_not_found':
    'No payout with that id is waiting to be confirmed: it may have been confirmed already. Look at your payouts again.',
  'payments.webhook_signature_invalid':
    'A message said to come from Stripe was not signed as Stripe signs for this instance, so it was ignored. If Stripe’s messages keep being refused, the operator should check STRIPE_WEBHOOK_SECRET.',
  'payments.webhook_malformed':
    'A message from Stripe could not be read as one of its events, so it was ignored. If it keeps happening, the operator should look at the webhook’s settings at Stripe.',
  'payments.processor_refused':
    'Stripe, which handles the payments, refused this as invalid, so it was not done. Check what was asked and try again.',
  'payments.processor_unavailable':
    'Stripe, which handles the payments, could not be reached just now, or did not answer in time. Try again in a few minutes.',
};
