// A media item's stream (`media-<mediaId>`), its fold and deciders, and the rules for what is recorded
// with it. The id is derived from the owner and the stored bytes' hash (`mediaIdFor`), so uploading the
// same content twice lands on the same stream and returns the item already there, even when two uploads
// race (one of them then loses on the stream's version, and nothing is stored twice).
import { conflict, notFound } from '../shared/errors.js';
import type { NewEvent } from '../shared/envelope.js';
import { streamAggregate } from '../shared/aggregate.js';
import { uuidV8FromDigest } from '../shared/ids.js';
import type { StoredEventLike } from '../shared/stored-event-like.js';
import { MEDIA_LIMITS, type MediaContentType, type MediaUploadedData } from './media-events.js';

export const mediaStream = (mediaId: string) => `media-${mediaId}`;

/** What `mediaIdFor` hashes (services computes the SHA-256: the domain has no crypto). */
export const mediaIdSeed = (ownerAgentId: string, sha256: string) => `media\n${ownerAgentId}\n${sha256}`;

/**
 * A name-based UUID (RFC 9562 version 8) from a hex SHA-256 digest of `mediaIdSeed(owner, sha256)`:
 * the same owner and bytes always give the same id; different owners never share one.
 */
export const mediaIdFor = (digestHex: string): string => uuidV8FromDigest(digestHex);

export interface MediaState {
  /** Uploaded and not deleted since. */
  live: boolean;
  item?: MediaUploadedData;
}

const initialMediaState = (): MediaState => ({ live: false });

function evolveMedia(state: MediaState, event: StoredEventLike): MediaState {
  if (event.type === 'media.uploaded') return { live: true, item: event.data as MediaUploadedData };
  if (event.type === 'media.deleted') return { ...state, live: false };
  return state;
}

export const mediaStreams = streamAggregate('media-', { initial: initialMediaState, evolve: evolveMedia });

/** Control characters (C0, DEL, C1) and the bidirectional overrides that can disguise an extension. */
// eslint-disable-next-line no-control-regex
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
export const DEFAULT_MEDIA_FILENAME = 'image';

/**
 * The original filename as recorded: only its last path segment (`../../x.png` is `x.png`; a name is
 * never used as a storage path, but it is shown and offered as a download name), without control or
 * bidi-override characters, trimmed, at most 200 characters with the extension kept when cut. An empty
 * result, `.` or `..` becomes `image`.
 */
export function sanitizeMediaFilename(raw: string | undefined): string {
  const base = (raw ?? '').normalize('NFC').split(/[/\\]/).pop() ?? '';
  const name = base.replace(UNPRINTABLE, '').trim();
  if (name === '' || name === '.' || name === '..') return DEFAULT_MEDIA_FILENAME;
  if (name.length <= MEDIA_LIMITS.filenameChars) return name;
  const dot = name.lastIndexOf('.');
  const ext = dot > 0 && name.length - dot <= 12 ? name.slice(dot) : '';
  return (
    cutCodePoints(name.slice(0, name.length - ext.length), MEDIA_LIMITS.filenameChars - ext.length) + ext
  );
}

/** The longest prefix of `s` within `max` UTF-16 units that does not split a surrogate pair. */
function cutCodePoints(s: string, max: number): string {
  let out = '';
  for (const cp of s) {
    if (out.length + cp.length > max) break;
    out += cp;
  }
  return out;
}

/** Alt text as recorded: control characters dropped, trimmed, at most 300 characters; empty is none. */
export function sanitizeMediaAlt(raw: string | undefined): string | undefined {
  const alt = cutCodePoints((raw ?? '').replace(UNPRINTABLE, ' ').trim(), MEDIA_LIMITS.altChars).trim();
  return alt === '' ? undefined : alt;
}

export interface UploadMedia {
  mediaId: string;
  ownerAgentId: string;
  sha256: string;
  contentType: MediaContentType;
  width: number;
  height: number;
  length: number;
  filename: string;
  alt?: string | undefined;
}

/**
 * Records an uploaded item, or nothing when the owner already holds these bytes (the caller answers
 * the item already there). A deleted item uploaded again lives again under the same id.
 */
export function decideUploadMedia(cmd: UploadMedia, state: MediaState): NewEvent[] {
  if (state.live) return [];
  const { alt, ...rest } = cmd;
  return [
    { stream: mediaStream(cmd.mediaId), type: 'media.uploaded', data: { ...rest, ...(alt && { alt }) } },
  ];
}

/**
 * Deletes the owner's item unless a published version of one of their sites uses it (`publishedIn`,
 * the ids of those sites, read by the caller). Someone else's item looks like no item at all.
 */
export function decideDeleteMedia(
  cmd: { mediaId: string; ownerAgentId: string; publishedIn: readonly string[] },
  state: MediaState,
): NewEvent[] {
  if (!state.live || state.item?.ownerAgentId !== cmd.ownerAgentId)
    throw notFound('builder.media_not_found', 'no such media item among yours');
  if (cmd.publishedIn.length > 0)
    throw conflict('builder.media_in_use', 'a published version of your site uses this media item', {
      siteIds: [...cmd.publishedIn].sort(),
    });
  return [
    {
      stream: mediaStream(cmd.mediaId),
      type: 'media.deleted',
      data: { mediaId: cmd.mediaId, ownerAgentId: cmd.ownerAgentId },
    },
  ];
}

const MEGABYTE = 1024 * 1024;
/** One decimal at most, none when whole: 10, 10.5. */
const short = (v: number) => (Number.isInteger(v) ? String(v) : v.toFixed(1).replace(/\.0$/, ''));

/** A byte count as people read it: "10 MB", "512 KB", "900 bytes" (a megabyte is 1024×1024 bytes). */
export function bytesInWords(n: number): string {
  if (n >= MEGABYTE) return `${short(n / MEGABYTE)} MB`;
  if (n >= 1024) return `${short(n / 1024)} KB`;
  return `${n} bytes`;
}

/** A pixel count as people read it: "100 megapixels", "0.5 megapixels" under a million. */
export function pixelsInWords(n: number): string {
  return `${short(Math.round(n / 100_000) / 10)} megapixels`;
}

/** builder.media_too_large's message: the limit in words, the upload's size when known, what to do. */
export function mediaTooLargeMessage(maxBytes: number, size?: number): string {
  return (
    `a picture is at most ${bytesInWords(maxBytes)}` +
    (size !== undefined ? ` and this one is ${bytesInWords(size)}` : '') +
    ': save it smaller (a JPEG, or fewer pixels) and upload it again'
  );
}

/** builder.media_too_many_pixels's message: both limits in words, the picture's size when known. */
export function mediaTooManyPixelsMessage(
  limits: { maxPixels: number; maxDimension: number },
  size?: { width: number; height: number; frames?: number },
): string {
  const frames = size?.frames ?? 1;
  return (
    `a picture is at most ${pixelsInWords(limits.maxPixels)}${frames > 1 ? ' (every frame counted)' : ''}` +
    ` and ${limits.maxDimension} pixels wide or high` +
    (size
      ? ` and this one is ${size.width}×${size.height}` +
        (frames > 1 ? ` in ${frames} frames` : '') +
        ` (${pixelsInWords(size.width * size.height * frames)})`
      : '') +
    ': save it at a smaller size and upload it again'
  );
}
