// Tags: a scanned QR/URL tag or an NFC chip's UID that resolves to a public object. Each scheme states
// its id's form; the id is normalized so one physical tag is one stream (`spatial-tag-<scheme>-<key>`).
import type { NewEvent } from '../shared/envelope.js';
import { conflict, invalid, notFound } from '../shared/errors.js';
import { isHttpUrl } from '../shared/http-url.js';
import type { StoredEventLike } from '../shared/stored-event-like.js';
import { TAG_SCHEMES, type SpatialEventData, type TagScheme, type TagTarget } from './events.js';
import { spatialTagStream } from './streams.js';

export const isTagScheme = (s: string): s is TagScheme => (TAG_SCHEMES as readonly string[]).includes(s);

/** NFC UIDs are 4, 7 or 10 bytes (ISO/IEC 14443-3 single, double, triple size). */
const NFC_UID = /^(?:[0-9a-f]{8}|[0-9a-f]{14}|[0-9a-f]{20})$/;

/**
 * A tag id in its scheme's normal form: `nfc` — hex, separators `:` or `-` dropped, lower-cased;
 * `url` — an https URL (at most 2,000 characters) as given. Unknown scheme or malformed id: 400.
 */
export function normalizeTagId(scheme: string, raw: string): { scheme: TagScheme; tagId: string } {
  if (!isTagScheme(scheme))
    throw invalid('spatial.tag_scheme_unknown', 'no such tag scheme', { schemes: [...TAG_SCHEMES] });
  if (scheme === 'nfc') {
    const hex = raw.replace(/[:-]/g, '').toLowerCase();
    if (!NFC_UID.test(hex))
      throw invalid('spatial.tag_invalid', 'an NFC UID is 4, 7 or 10 bytes in hex', { scheme });
    return { scheme, tagId: hex };
  }
  if (raw.length > 2000 || !raw.toLowerCase().startsWith('https://') || !isHttpUrl(raw))
    throw invalid('spatial.tag_invalid', 'a URL tag is an https URL without credentials', { scheme });
  return { scheme, tagId: raw };
}

export interface TagState {
  exists: boolean;
  scheme?: TagScheme;
  tagId?: string;
  ownerAgentId?: string;
  target?: TagTarget;
  label?: string | undefined;
}

export const initialTagState = (): TagState => ({ exists: false });

export function evolveTag(state: TagState, event: StoredEventLike): TagState {
  if (event.type === 'spatial_tag.registered') {
    const d = event.data as SpatialEventData<'spatial_tag.registered'>;
    return {
      exists: true,
      scheme: d.scheme,
      tagId: d.tagId,
      ownerAgentId: d.ownerAgentId,
      target: d.target,
      label: d.label,
    };
  }
  if (event.type === 'spatial_tag.removed') return initialTagState();
  return state;
}

export interface RegisterTag {
  scheme: TagScheme;
  tagId: string;
  /** The stream key (services: the NFC id, or the SHA-256 hex of the URL). */
  key: string;
  ownerAgentId: string;
  /** Checked by services: a public object of this owner's. */
  target: TagTarget;
  label?: string | undefined;
}

/** A tag is one owner's: another owner's is a conflict; the same registration again is no event. */
export function decideRegisterTag(cmd: RegisterTag, tag: TagState): NewEvent[] {
  if (tag.exists && tag.ownerAgentId !== cmd.ownerAgentId)
    throw conflict('spatial.tag_taken', 'this tag is registered to someone else');
  if (tag.exists && JSON.stringify(tag.target) === JSON.stringify(cmd.target) && tag.label === cmd.label)
    return [];
  return [
    {
      stream: spatialTagStream(cmd.scheme, cmd.key),
      type: 'spatial_tag.registered',
      data: {
        scheme: cmd.scheme,
        tagId: cmd.tagId,
        ownerAgentId: cmd.ownerAgentId,
        target: cmd.target,
        ...(cmd.label !== undefined && { label: cmd.label }),
      },
    },
  ];
}

export function decideRemoveTag(
  cmd: { scheme: TagScheme; tagId: string; key: string; ownerAgentId: string },
  tag: TagState,
): NewEvent[] {
  if (!tag.exists || tag.ownerAgentId !== cmd.ownerAgentId)
    throw notFound('spatial.tag_not_found', 'no such tag among yours');
  return [
    {
      stream: spatialTagStream(cmd.scheme, cmd.key),
      type: 'spatial_tag.removed',
      data: { scheme: cmd.scheme, tagId: cmd.tagId },
    },
  ];
}
