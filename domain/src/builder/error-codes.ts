// The site builder's error codes; docs/api.md's table is generated from these descriptions.
import type { ErrorCodeList } from '../shared/error-kind.js';

export const BUILDER_ERROR_CODES = {
  'builder.site_not_found': { kinds: ['not_found'], description: 'the site does not exist or is not yours' },
  'builder.draft_stale': {
    kinds: ['conflict'],
    description: 'the draft changed since the revision you edited; `currentRevision` is in the details',
  },
  'builder.nothing_to_undo': {
    kinds: ['conflict'],
    description:
      'the draft has no earlier state to go back to (it is as first created, or every step is undone)',
  },
  'builder.nothing_to_redo': {
    kinds: ['conflict'],
    description: 'nothing was undone since the last change, so there is nothing to redo',
  },
  'builder.undo_takes_back_restore': {
    kinds: ['conflict'],
    description:
      'the next undo would take back a restore of a published version into the draft, bringing back the draft it replaced; undo again with `undoRestore: true` to do it. `versionId`, `versionPublishedAt` and `restoredAt` are in the details',
  },
  'builder.revision_not_found': {
    kinds: ['not_found'],
    description: 'the draft has no such revision (it has not reached it yet)',
  },
  'builder.draft_too_large': { kinds: ['too_large'], description: 'the draft is over its stated limits' },
  'builder.unsafe_content': {
    kinds: ['invalid'],
    description:
      'a field holds a script, an event handler, or a link that is not http(s), mailto or a site path',
  },
  'builder.link_invalid': {
    kinds: ['invalid'],
    description:
      'a link of the draft is not a web address (http or https), an email address or a /path of the site, even once repaired (a bare email address becomes a `mailto:` link, a bare `www.` address an `https://` one); `path` (e.g. `pages.0.blocks.2.items.1.url`) and `value` name the first, `links` lists each `{ path, value }`',
  },
  'builder.unknown_reference': {
    kinds: ['invalid'],
    description: 'the draft names a media item or form the owner does not hold',
  },
  'builder.version_not_found': {
    kinds: ['not_found'],
    description: 'no such version of this site',
  },
  'builder.version_not_published': {
    kinds: ['conflict'],
    description:
      'the version was never published (a preview): only a version the site once served can be rolled back to or restored',
  },
  'builder.site_suspended': {
    kinds: ['forbidden'],
    description: 'the site is suspended by an operator; `reason` is in the details',
  },
  'builder.block_not_found': {
    kinds: ['not_found'],
    description: 'the page has no block at this position (`from`); `blocks` says how many it has',
  },
  'builder.block_position_invalid': {
    kinds: ['invalid'],
    description: 'the position to move a block to (`to`) is not on the page; `blocks` says how many it has',
  },
  'builder.page_not_found': {
    kinds: ['not_found'],
    description: 'the draft has no page at this path',
  },
  'builder.not_published': {
    kinds: ['conflict'],
    description: 'the site has never been published, so there is nothing to roll back: publish it first',
  },
  'builder.domain_invalid': {
    kinds: ['invalid'],
    description:
      'not a well-formed domain name (lower-case ASCII labels, punycode for IDNs, at most 232 characters); `reason` says why',
  },
  'builder.domain_not_allowed': {
    kinds: ['invalid'],
    description:
      'the name cannot be bound: an IP address, a non-public top-level name, a public suffix, the instance’s own host or its free-address domain; `reason` says which',
  },
  'builder.domain_taken': {
    kinds: ['conflict'],
    description: 'the domain is bound to another site (of yours or someone else’s)',
  },
  'builder.domain_not_found': {
    kinds: ['not_found'],
    description: 'the domain is not bound to this site',
  },
  'builder.dns_provider_unknown': {
    kinds: ['invalid'],
    description: 'no such DNS provider here; `providers` lists those there are',
  },
  'builder.media_unsupported_type': {
    kinds: ['invalid'],
    description:
      'the upload is not a JPEG, PNG, WebP, GIF, AVIF or HEIC/HEIF image, as decided from its bytes (never its name or declared type); SVG is refused; `detected` is in the details',
  },
  'builder.media_unreadable': {
    kinds: ['invalid'],
    description: 'the upload starts like an image but cannot be decoded (truncated or corrupt)',
  },
  'builder.media_too_large': {
    kinds: ['too_large'],
    description:
      'the upload is over `BUILDER_MEDIA_MAX_BYTES` (10 MB by default; the message says it in words); `maxBytes` and, when known, the upload’s `bytes` are in the details',
  },
  'builder.media_too_many_pixels': {
    kinds: ['too_large'],
    description:
      'the image is over the decode guard (`BUILDER_MEDIA_MAX_PIXELS`, 110 megapixels by default, every frame counted; 64 for HEIC) or the side-length limit (`BUILDER_MEDIA_MAX_DIMENSION`), read from its header before anything is decoded; the message says the limits in words; a picture within them but larger than `BUILDER_MEDIA_LONG_EDGE` is scaled down, not refused',
  },
  'builder.media_upload_malformed': {
    kinds: ['invalid'],
    description:
      '`POST /api/builder/media`: not `multipart/form-data`, no `file` part, more than one file, or a field that is not expected',
  },
  'builder.media_not_found': {
    kinds: ['not_found'],
    description: 'the media item does not exist or is not yours',
  },
  'builder.media_in_use': {
    kinds: ['conflict'],
    description:
      'the media item is used by the published version of one of your sites; `siteIds` is in the details',
  },
  // Addresses (docs/builder.md#addresses).
  'builder.label_invalid': {
    kinds: ['invalid'],
    description:
      'the address is not a label this instance gives out; `reason` is too_short, too_long, charset, hyphen, punycode or reserved',
  },
  'builder.label_taken': {
    kinds: ['conflict'],
    description: 'another site (or, in the global registry, another instance) holds the address',
  },
  'builder.label_held': {
    kinds: ['conflict'],
    description:
      'the address was released recently and is held back for its previous owner until `holdUntil`',
  },
  'builder.site_has_address': {
    kinds: ['conflict'],
    description: 'the site already has an address (`label`); release it first',
  },
  'builder.address_not_found': {
    kinds: ['not_found'],
    description: 'the site (or, in the global registry, the calling instance) holds no such address',
  },
  'builder.address_registry_unavailable': {
    kinds: ['unavailable'],
    description:
      'the global instance could not confirm the address (unreachable, or it refused for a reason of its own: `remoteCode`); nothing was written',
  },
  'builder.hostname_invalid': {
    kinds: ['invalid'],
    description: 'the host name is not a lower-case DNS name or IPv4 address',
  },
  'builder.hostname_not_yours': {
    kinds: ['forbidden'],
    description: "the host name is neither the host of the instance's registered base URL nor under it",
  },
  'builder.form_not_found': {
    kinds: ['not_found'],
    description: 'the form does not exist, is not yours, or (on a site) is not in its published version',
  },
  'builder.form_in_use': {
    kinds: ['conflict'],
    description: "a site's published version holds the form; `siteIds` is in the details",
  },
  'builder.submission_not_found': {
    kinds: ['not_found'],
    description: 'the submission does not exist or is not of a form of yours',
  },
  'builder.submission_invalid': {
    kinds: ['invalid'],
    description:
      "a form submission breaks its fields' rules; `fields` lists `{ field, reason }` for each refused field",
  },
  'builder.submission_too_large': {
    kinds: ['too_large'],
    description: 'a form submission is over its size limit (`limitBytes` in the details)',
  },
  'builder.submission_rate_limited': {
    kinds: ['rate_limited'],
    description: 'too many submissions to this form from one address; `retryAfter` is in the details',
  },
} as const satisfies ErrorCodeList;
