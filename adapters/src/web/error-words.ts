// Refusals in plain words for the pages (docs/web.md#errors): what went wrong and what to do next, for a
// person who never reads the API reference. The code stays beside them in small print (problemNotice),
// since it is what an operator or a bug report needs. The builder's words are here; the other areas'
// are in error-words-people.ts, error-words-instance.ts, error-words-federation.ts and
// error-words-worlds.ts. A code with no entry shows its API message; CODES_NEVER_ON_PAGES names the codes
// no page shows, and a test holds every other code of every area to having words.
import { bytesInWords } from '@tributary/domain';
import { because, count, detail, type Refusal, type Words, type WordsTable } from './error-words-kit.js';
import {
  ACCESS_ERROR_WORDS,
  ACCOUNT_ERROR_WORDS,
  ASSISTANT_PAGE_ERROR_WORDS,
  AUTH_ERROR_WORDS,
  MAIL_ERROR_WORDS,
} from './error-words-people.js';
import { OPERATOR_ERROR_WORDS, REQUEST_ERROR_WORDS } from './error-words-instance.js';
import { FEDERATION_ERROR_WORDS } from './error-words-federation.js';
import { MANIFEST_ERROR_WORDS, PAYMENT_ERROR_WORDS, SPATIAL_ERROR_WORDS } from './error-words-worlds.js';

export type { Refusal, Words } from './error-words-kit.js';

/**
 * builder.link_invalid: each refused link by its line in the list it was typed in (a links block, the
 * navigation, the footer's links: one link a line, `path` ending `items.<n>.url` or `links.<n>.url`), or
 * as the link of a button or picture; then how to write one.
 */
function linkWords(e: Refusal): string {
  const given = detail(e, 'links');
  const links = (Array.isArray(given) ? given : [{ path: detail(e, 'path'), value: detail(e, 'value') }])
    .filter((l: { value?: unknown }) => typeof l.value === 'string')
    .slice(0, 3)
    .map((l: { path?: unknown; value: string }) => {
      const line = /\.(?:items|links)\.(\d+)\.url$/.exec(String(l.path ?? ''))?.[1];
      const what = `‘${l.value}’ is not a web address or email address`;
      return line === undefined ? `The link ${what}.` : `Line ${Number(line) + 1}: ${what}.`;
    });
  const which = links.length > 0 ? links.join(' ') : 'A link is not a web address or email address.';
  return `${which} Write it like https://example.com, name@example.com or /a-page (a page of this site).`;
}

const BUILDER_ERROR_WORDS: WordsTable = {
  'builder.site_not_found':
    'This site does not exist, or it is not yours. It may have been deleted: go back to your sites.',
  'builder.draft_stale':
    'Someone else (or you, in another tab) saved this site first, so this change was not saved. The page now shows the site as it is: make your change again.',
  'builder.nothing_to_undo': 'There is nothing to undo: the draft is as it was first made.',
  'builder.nothing_to_redo': 'There is nothing to redo: nothing was undone since the last change.',
  'builder.undo_takes_back_restore':
    'This undo would take back restoring an earlier version into the draft, so the draft would again hold what that restore replaced. Undo again and confirm if that is what you want.',
  'builder.revision_not_found':
    'The draft has no such earlier state: it has not been saved that many times. Reload the page to see it as it is.',
  'builder.draft_too_large': (e) =>
    `The site is too big to save: a draft holds at most ${typeof detail(e, 'limit') === 'number' ? bytesInWords(detail(e, 'limit') as number) : '1 MB'} of text. Shorten long texts or split them over more pages.`,
  'builder.unsafe_content':
    'Something in this block is not allowed on a site: a script, or a link that does not start with https://, http://, mailto: or /. Change it and save again.',
  'builder.link_invalid': linkWords,
  'builder.unknown_reference':
    'The page uses a picture or a form that is not in your library any more. Choose another one, or remove the block.',
  'builder.version_not_found': 'That version of the site does not exist. Reload the page to see the list.',
  'builder.version_not_published':
    'That version was never published (it was a preview), so it cannot be put online or restored. Choose a version from the list.',
  'builder.site_suspended':
    'The operators of this instance have suspended this site, so it cannot be published. Ask them why.',
  'builder.block_not_found': 'That block is not on the page any more. Reload the page and try again.',
  'builder.block_position_invalid':
    'A block cannot be moved there: the page is not that long. Reload the page and try again.',
  'builder.page_not_found': 'That page is not in the site any more. Reload to see its pages.',
  'builder.not_published':
    'The site was never published, so there is nothing to roll back to. Publish it first.',
  'builder.domain_invalid': (e) =>
    `That is not a domain name we can use (${because(e)}). Write it like example.com or shop.example.com.`,
  'builder.domain_not_allowed': (e) =>
    `That domain cannot be connected (${because(e)}). Use a domain you registered, like example.com.`,
  'builder.domain_taken':
    'That domain is already connected to another site. Remove it there first, or choose another domain.',
  'builder.domain_not_found': 'That domain is not connected to this site. Reload to see its domains.',
  'builder.dns_provider_unknown': 'We do not know that DNS provider. Choose one from the list.',
  'builder.media_unsupported_type':
    'That file is not a picture we can use. Upload a JPEG, PNG, WebP, GIF, AVIF or HEIC photo (SVG is not accepted).',
  'builder.media_unreadable':
    'That picture could not be opened: the file may be damaged or cut short. Save it again and upload it again.',
  'builder.media_too_large': (e) => `That picture is too big: ${because(e)}.`,
  'builder.media_too_many_pixels': (e) => `That picture has too many pixels: ${because(e)}.`,
  'builder.media_upload_malformed':
    'The upload did not arrive whole. Choose the picture and upload it again.',
  'builder.media_not_found': 'That picture is not in your library any more. Reload to see your pictures.',
  'builder.media_in_use': (e) =>
    `That picture is on ${Array.isArray(detail(e, 'siteIds')) ? count((detail(e, 'siteIds') as unknown[]).length, 'published site') : 'a published site'}, so it was kept. Take it off the site and publish, then delete it.`,
  'builder.label_invalid': (e) =>
    `That address cannot be used: ${because(e)}. Use lower-case letters, digits and hyphens, like adas-bakery.`,
  'builder.label_taken': 'That address is already used by another site. Choose another one.',
  'builder.label_held':
    'That address was given up recently and is held back for a while for whoever had it. Choose another one.',
  'builder.site_has_address': 'This site already has an address. Release it first to choose another one.',
  'builder.address_not_found': 'This site has no such address. Reload the page to see its address.',
  'builder.address_registry_unavailable':
    'The address could not be confirmed just now, so nothing was changed. Try again in a few minutes.',
  'builder.hostname_invalid': 'That is not a host name we can use. Write it like sites.example.com.',
  'builder.hostname_not_yours': 'That host name is not under this instance’s own address.',
  'builder.form_not_found':
    'That form does not exist any more, or it is not yours. Reload to see your forms.',
  'builder.form_in_use': (e) =>
    `That form is on ${Array.isArray(detail(e, 'siteIds')) ? count((detail(e, 'siteIds') as unknown[]).length, 'published site') : 'a published site'}, so it was kept. Take it off the site and publish, then delete it.`,
  'builder.submission_not_found': 'That message is not there any more: it may have been deleted already.',
  'builder.submission_invalid': 'Some answers are not right: see the fields marked below.',
  'builder.submission_too_large': 'The message is too long. Shorten it and send it again.',
  'builder.submission_rate_limited':
    'Too many messages were sent from here just now. Wait a minute and try again.',
};

/** Every code a page shows in words. */
export const PAGE_ERROR_WORDS: Readonly<Record<string, Words>> = {
  ...REQUEST_ERROR_WORDS,
  ...AUTH_ERROR_WORDS,
  ...ACCOUNT_ERROR_WORDS,
  ...MAIL_ERROR_WORDS,
  ...ACCESS_ERROR_WORDS,
  ...ASSISTANT_PAGE_ERROR_WORDS,
  ...OPERATOR_ERROR_WORDS,
  ...FEDERATION_ERROR_WORDS,
  ...BUILDER_ERROR_WORDS,
  ...SPATIAL_ERROR_WORDS,
  ...MANIFEST_ERROR_WORDS,
  ...PAYMENT_ERROR_WORDS,
};

/**
 * A code's words where only the code was kept (a tool call's or a plan step's outcome): the entries that
 * stand without the refusal's message and details, or null.
 */
export function codeWords(code: string): string | null {
  const w = PAGE_ERROR_WORDS[code];
  return typeof w === 'string' ? w : null;
}

/** A refusal in words for a page, or null when the code has none (the API's message is shown then). */
export function errorWords(e: Refusal): string | null {
  const w = PAGE_ERROR_WORDS[e.code];
  return w === undefined ? null : typeof w === 'string' ? w : w(e);
}

const BEARER = 'a bearer token’s refusal: the pages go by the session cookie, never a token';
const PEER_MAIL = 'only a peer’s or a program’s mail request (svc.mail.request) names these';
const OAUTH_CLIENT = 'answered to an OAuth client as JSON (RFC 6749/7591/8628), never to a page';
const MCP = 'answered on /api/mcp as JSON-RPC, never to a page';

/**
 * The codes no page shows, each with why: a test holds every other code of every area (and of the
 * requests a browser makes) to having words. A key ending in `.*` names a family.
 */
export const CODES_NEVER_ON_PAGES: Readonly<Record<string, string>> = {
  'auth.invalid_token': BEARER,
  'auth.wrong_audience': BEARER,
  'auth.token_expired': BEARER,
  'auth.token_revoked': BEARER,
  'auth.persona_deleted': BEARER,
  'auth.legacy_unscoped_expired': BEARER,
  'log.duplicate_event': 'raised by imports of peers’ events and restores, not by anything a page does',
  'backup.*': 'tributary backup and restore only (the command line)',
  'envelope.*': 'signed envelopes arrive from peers, never from a page',
  'request.malformed_json': 'a JSON body: the pages post forms',
  'request.idempotency_key_invalid': 'the Idempotency-Key header: API clients only',
  'request.idempotency_key_reused': 'the Idempotency-Key header: API clients only',
  'operation.not_found': 'POST /api/ops/{operation} of an unknown name: API clients only',
  'request.malformed': 'bytes that are not HTTP get no page (there is no request to answer)',
  'request.unsupported_media_type': 'a JSON API write in another type: the pages post forms to page routes',
  'request.unsupported_encoding': 'a compressed or non-UTF-8 API body: browsers send neither to the pages',
  'request.method_not_allowed': MCP,
  'request.batch_unsupported': MCP,
  'request.invalid_jsonrpc': MCP,
  'request.unreadable_body': MCP,
  'tool.not_found': MCP,
  'resource.not_found': MCP,
  'prompt.not_found': MCP,
  'discovery.matrix_not_configured': 'a document for Matrix servers, not for people',
  'metrics.token_required': 'GET /metrics, for a metrics scraper',
  'metrics.local_only': 'GET /metrics, for a metrics scraper',
  'server.not_ready': 'GET /readyz, for a process manager or load balancer',
  'server.unhealthy': 'GET /healthz, for a process manager or load balancer',
  'account.email_digest_missing': 'only internal callers pass an email digest; the pages pass the address',
  'account.exists': 'account ids are made by the instance: a decider’s guard, not a person’s doing',
  'token.exists': 'token ids are made by the instance: a decider’s guard, not a person’s doing',
  'mail.unknown_template': PEER_MAIL,
  'mail.template_not_allowed': PEER_MAIL,
  'mail.bad_variables': PEER_MAIL,
  'mail.link_off_origin': PEER_MAIL,
  'mail.too_many_recipients': PEER_MAIL,
  'mail.bad_request_key': PEER_MAIL,
  'mail.request_key_reused': PEER_MAIL,
  'mail.token_exists': 'a token digest collision inside the instance, not a person’s doing',
  'oauth.invalid_redirect_uri': OAUTH_CLIENT,
  'oauth.invalid_client_metadata': OAUTH_CLIENT,
  'oauth.unsupported_grant_type': OAUTH_CLIENT,
  'oauth.unauthorized_client': OAUTH_CLIENT,
  'oauth.authorization_pending': OAUTH_CLIENT,
  'oauth.slow_down': OAUTH_CLIENT,
  'sso.assertion_replayed': 'internal: answered as sso.assertion_rejected',
  'sso.credential_in_query': 'an API client putting a credential in the query string; pages post forms',
  'sso.peer_request_required': 'routes that answer signed peer requests only',
  'sso.request_key_reused': 'routes that answer signed peer requests only',
  'instance.already_initialized': 'tributary init only (the command line)',
  'instance.key_mismatch': 'checked when the instance starts, before any page is served',
  'instance.role_mismatch': 'checked when the instance starts, before any page is served',
};
