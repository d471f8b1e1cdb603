// The builder's media processor (docs/builder.md#media) on sharp (libvips) and file-type.
// - The type is decided from the bytes by file-type's signatures, never from a name or a header, and only
//   raster formats are accepted: an SVG is a document that can carry script, so it never reaches a decoder.
// - The limits are checked on the header (sharp's metadata reads no pixel data) before anything is
//   decoded, and again by sharp's own `limitInputPixels` while decoding, so a small file claiming
//   gigapixels (a decompression bomb) costs nothing.
// - A picture with a long edge over `longEdge` (BUILDER_MEDIA_LONG_EDGE, 4096 by default) is scaled down
//   to it on the way in rather than refused: a 48–200 MP phone photo is mostly pixels no page shows.
//   `maxPixels` (BUILDER_MEDIA_MAX_PIXELS, 100 MP) stays as the guard on what is decoded at all.
// - HEIC/HEIF (the iPhone's default) is decoded by the HeifDecoder port when one is given (sharp's
//   prebuilt libvips has no HEVC decoder), at most HEIF_MAX_PIXELS of it, and stored as a JPEG (a WebP
//   when it has transparency).
// - Re-encoding in the upload's own type drops everything but pixels: EXIF (GPS included), XMP, IPTC,
//   comments, the ICC profile (colours are converted to sRGB first) and anything appended after the
//   image data, so a polyglot file loses its second life. AVIF is decoded but stored as WebP: encoding
//   AVIF takes tens of seconds per image on a small server.
// The assistant's attachments use the same processor with options of their own: fewer types, the first
// frame of an animation only, and their own refusal codes (docs/assistant.md#attachments).
import {
  domainError,
  invalid,
  mediaTooLargeMessage,
  mediaTooManyPixelsMessage,
  type CodeOfKind,
  type MediaContentType,
} from '@tributary/domain';
import type { HeifDecoder, MediaLimits, MediaProcessor, ProcessedImage } from '@tributary/services';
import { fileTypeFromBuffer } from 'file-type';
import sharp, { type Sharp } from 'sharp';

/** The documented defaults (docs/configuration.md). */
export const DEFAULT_MEDIA_LIMITS = {
  maxBytes: 10 * 1024 * 1024,
  // A 200 MP phone photo is refused; 48–108 MP ones are taken and scaled down.
  maxPixels: 110_000_000,
  maxDimension: 16_383,
  // Sharp on a 4K screen at full width, and about 1.5 MB as a JPEG.
  longEdge: 4096,
} satisfies MediaLimits;

/**
 * The most pixels of a HEIC decoded at all, whatever maxPixels says: libheif in WebAssembly has no
 * shrink-on-load, so a decode holds about 10 bytes a pixel at once (64 MP: ~0.6 GB, in its own worker).
 * iPhones take 12, 24 and 48 MP.
 */
export const HEIF_MAX_PIXELS = 64_000_000;

/** Detected type → the format sharp must read it as, and the type it is stored in. */
const ACCEPTED: Record<string, { format: string; output: MediaContentType; animated: boolean }> = {
  'image/jpeg': { format: 'jpeg', output: 'image/jpeg', animated: false },
  'image/png': { format: 'png', output: 'image/png', animated: false },
  // An animated PNG keeps its first frame: libvips reads APNG as a still PNG.
  'image/apng': { format: 'png', output: 'image/png', animated: false },
  'image/webp': { format: 'webp', output: 'image/webp', animated: true },
  'image/gif': { format: 'gif', output: 'image/gif', animated: true },
  'image/avif': { format: 'heif', output: 'image/webp', animated: false },
};

/** The codes a processor refuses with: the builder's by default. */
export interface MediaRefusalCodes {
  tooLarge: CodeOfKind<'too_large'>;
  tooManyPixels: CodeOfKind<'too_large'>;
  unsupportedType: CodeOfKind<'invalid'>;
  unreadable: CodeOfKind<'invalid'>;
}

export interface MediaProcessorOptions {
  /** The detected types accepted (`image/apng` goes with `image/png`); every one of ACCEPTED by default. */
  accept?: readonly MediaContentType[];
  /** Keep only the first frame of an animation (and count only its pixels). */
  stillsOnly?: boolean;
  codes?: MediaRefusalCodes;
  /** Decodes HEIC/HEIF, which is then accepted and stored as JPEG (WebP with transparency); none: refused. */
  heif?: HeifDecoder;
}

const BUILDER_CODES: MediaRefusalCodes = {
  tooLarge: 'builder.media_too_large',
  tooManyPixels: 'builder.media_too_many_pixels',
  unsupportedType: 'builder.media_unsupported_type',
  unreadable: 'builder.media_unreadable',
};

const TYPE_NAMES: Record<MediaContentType, string> = {
  'image/jpeg': 'JPEG',
  'image/png': 'PNG',
  'image/webp': 'WebP',
  'image/gif': 'GIF',
  'image/avif': 'AVIF',
};

/** What one processor accepts and how it refuses, resolved from its options. */
interface Policy {
  limits: MediaLimits;
  accepted: Record<string, (typeof ACCEPTED)[string]>;
  stillsOnly: boolean;
  codes: MediaRefusalCodes;
  /** "upload a JPEG, PNG, … image" */
  hint: string;
  heif: HeifDecoder | undefined;
}

function policyOf(limits: MediaLimits, o: MediaProcessorOptions): Policy {
  const accept = o.accept ?? (Object.keys(TYPE_NAMES) as MediaContentType[]);
  const accepted = Object.fromEntries(
    Object.entries(ACCEPTED).filter(([type]) =>
      accept.includes((type === 'image/apng' ? 'image/png' : type) as MediaContentType),
    ),
  );
  const names = [...accept.map((t) => TYPE_NAMES[t]), ...(o.heif ? ['HEIC'] : [])];
  const hint = `upload a ${names.slice(0, -1).join(', ')}${names.length > 1 ? ' or ' : ''}${names.at(-1)} image`;
  return {
    limits,
    accepted,
    stillsOnly: o.stillsOnly ?? false,
    codes: o.codes ?? BUILDER_CODES,
    hint,
    heif: o.heif,
  };
}

const QUALITY = 85;
/**
 * A JPEG or WebP is shrunk while it is decoded, so a 100 MP photo scaled to 4096 px costs little more
 * than its result; a PNG is streamed; a HEIC is decoded whole (see HEIF_MAX_PIXELS). At most this many
 * run at once, the rest queue.
 */
const CONCURRENT_JOBS = 2;
const TIMEOUT_SECONDS = 30;

export function createSharpMediaProcessor(
  limits: MediaLimits = DEFAULT_MEDIA_LIMITS,
  options: MediaProcessorOptions = {},
): MediaProcessor {
  // One image is rarely processed twice: libvips' operation cache would only hold memory.
  sharp.cache(false);
  const slots = semaphore(CONCURRENT_JOBS);
  const policy = policyOf(limits, options);
  return {
    limits,
    async process(input) {
      if (input.byteLength > limits.maxBytes)
        throw domainError(
          policy.codes.tooLarge,
          'too_large',
          mediaTooLargeMessage(limits.maxBytes, input.byteLength),
          { maxBytes: limits.maxBytes, bytes: input.byteLength },
        );
      const bytes = Buffer.from(input.buffer, input.byteOffset, input.byteLength);
      const detected = (await fileTypeFromBuffer(bytes))?.mime;
      const heif = policy.heif;
      if (heif && (detected === 'image/heic' || detected === 'image/heif'))
        return slots(() => fromHeif(bytes, heif, policy));
      const accepted = detected === undefined ? undefined : policy.accepted[detected];
      if (!accepted)
        throw invalid(policy.codes.unsupportedType, policy.hint, {
          detected: detected ?? null,
        });
      return slots(() => reencode(bytes, accepted, policy));
    },
    async thumbnail(input, maxSide) {
      const bytes = Buffer.from(input.buffer, input.byteOffset, input.byteLength);
      return slots(() => thumbnailOf(bytes, maxSide, policy));
    },
  };
}

/** What a thumbnail is made from: the raster formats stored bytes can be in. Never SVG or a document. */
const THUMBNAIL_INPUTS = new Set(['jpeg', 'png', 'webp', 'gif', 'heif']);

async function thumbnailOf(
  bytes: Buffer,
  maxSide: number,
  policy: Policy,
): Promise<{ bytes: Buffer; contentType: 'image/webp' }> {
  const { limits, codes } = policy;
  const meta = await sharp(bytes, { limitInputPixels: limits.maxPixels })
    .metadata()
    .catch((e: unknown) => {
      throw refusalOf(e, policy);
    });
  if (!THUMBNAIL_INPUTS.has(meta.format ?? ''))
    throw invalid(codes.unsupportedType, 'only raster images have thumbnails', {
      detected: meta.format ? `image/${meta.format}` : null,
    });
  const data = await sharp(bytes, { limitInputPixels: limits.maxPixels, failOn: 'error' })
    .timeout({ seconds: TIMEOUT_SECONDS })
    .resize(maxSide, maxSide, { fit: 'inside', withoutEnlargement: true })
    .webp({ quality: 75 })
    .toBuffer()
    .catch((e: unknown) => {
      throw refusalOf(e, policy);
    });
  return { bytes: data, contentType: 'image/webp' };
}

async function reencode(
  bytes: Buffer,
  accepted: (typeof ACCEPTED)[string],
  policy: Policy,
): Promise<ProcessedImage> {
  const { limits, codes } = policy;
  const meta = await sharp(bytes, { limitInputPixels: limits.maxPixels })
    .metadata()
    .catch((e: unknown) => {
      throw refusalOf(e, policy);
    });
  // HEIC shares AVIF's container; only the AV1-coded kind is AVIF.
  if (meta.format !== accepted.format || (meta.format === 'heif' && meta.compression !== 'av1'))
    throw invalid(codes.unsupportedType, policy.hint, {
      detected:
        meta.format === 'heif' ? `image/heif (${meta.compression ?? 'unknown'})` : `image/${meta.format}`,
    });
  const frames = accepted.animated && !policy.stillsOnly ? Math.max(1, meta.pages ?? 1) : 1;
  const { width, height } = meta; // one frame's size
  if (!width || !height) throw invalid(codes.unreadable, 'the image has no size');
  checkPixels(width, height, frames, policy, limits.maxPixels);
  let image = sharp(bytes, {
    animated: frames > 1,
    // EXIF orientation is applied to the pixels, since the tag itself goes with the rest of the metadata.
    autoOrient: frames === 1,
    limitInputPixels: limits.maxPixels,
    failOn: 'error',
  })
    .timeout({ seconds: TIMEOUT_SECONDS })
    .toColourspace('srgb');
  image = scaled(image, limits);
  const encoded =
    accepted.output === 'image/jpeg'
      ? image.jpeg({ quality: QUALITY })
      : accepted.output === 'image/png'
        ? image.png({ palette: meta.isPalette })
        : accepted.output === 'image/webp'
          ? image.webp({ quality: QUALITY })
          : image.gif();
  const { data, info } = await encoded.toBuffer({ resolveWithObject: true }).catch((e: unknown) => {
    throw refusalOf(e, policy);
  });
  return {
    bytes: data,
    contentType: accepted.output,
    width: info.width,
    height: info.pageHeight ?? info.height,
  };
}

/** Over the decode guard (pixels, every frame counted, or a side): refused before a pixel is decoded. */
function checkPixels(width: number, height: number, frames: number, policy: Policy, maxPixels: number) {
  const { limits, codes } = policy;
  if (width > limits.maxDimension || height > limits.maxDimension || width * height * frames > maxPixels)
    throw domainError(
      codes.tooManyPixels,
      'too_large',
      mediaTooManyPixelsMessage({ maxPixels, maxDimension: limits.maxDimension }, { width, height, frames }),
      { width, height, frames, maxPixels, maxDimension: limits.maxDimension },
    );
}

/** Scaled so that its long edge is at most `longEdge` (when set), never enlarged. */
const scaled = (image: Sharp, limits: MediaLimits) =>
  limits.longEdge
    ? image.resize(limits.longEdge, limits.longEdge, { fit: 'inside', withoutEnlargement: true })
    : image;

/**
 * A HEIC/HEIF photo: its size checked on the header (sharp reads it, though it cannot decode HEVC), then
 * decoded by the port within the same guard, then scaled and stored as JPEG, or WebP when it has
 * transparency. Orientation (the file's rotation and mirror boxes) is applied by the decoder.
 */
async function fromHeif(bytes: Buffer, heif: HeifDecoder, policy: Policy): Promise<ProcessedImage> {
  const { limits, codes } = policy;
  const maxPixels = Math.min(limits.maxPixels, HEIF_MAX_PIXELS);
  const meta = await sharp(bytes, { limitInputPixels: maxPixels })
    .metadata()
    .catch((e: unknown) => {
      throw refusalOf(e, policy, maxPixels);
    });
  // AVIF shares HEIC's container and has its own path; a HEIF holding it is still only HEVC here.
  if (meta.format !== 'heif' || meta.compression !== 'hevc')
    throw invalid(codes.unsupportedType, policy.hint, {
      detected: `image/heif (${meta.compression ?? 'unknown'})`,
    });
  if (!meta.width || !meta.height) throw invalid(codes.unreadable, 'the image has no size');
  checkPixels(meta.width, meta.height, 1, policy, maxPixels);
  const decoded = await heif.decode(bytes, maxPixels);
  if (!decoded.ok) {
    if (decoded.reason === 'too_many_pixels')
      checkPixels(decoded.width, decoded.height, 1, policy, maxPixels);
    throw invalid(codes.unreadable, 'the HEIC image cannot be decoded');
  }
  const { width, height, rgba } = decoded.image;
  let image = sharp(rgba, { raw: { width, height, channels: 4 }, limitInputPixels: maxPixels }).timeout({
    seconds: TIMEOUT_SECONDS,
  });
  image = scaled(image, limits);
  const alpha = meta.hasAlpha === true;
  const { data, info } = await (
    alpha ? image.webp({ quality: QUALITY }) : image.removeAlpha().jpeg({ quality: QUALITY })
  )
    .toBuffer({ resolveWithObject: true })
    .catch((e: unknown) => {
      throw refusalOf(e, policy);
    });
  return {
    bytes: data,
    contentType: alpha ? 'image/webp' : 'image/jpeg',
    width: info.width,
    height: info.height,
  };
}

/** What a libvips failure means to the uploader: over the pixel limit (checked on the header), or unreadable. */
function refusalOf(e: unknown, { limits, codes }: Policy, maxPixels = limits.maxPixels) {
  if (e instanceof Error && /pixel limit/i.test(e.message))
    return domainError(
      codes.tooManyPixels,
      'too_large',
      mediaTooManyPixelsMessage({ maxPixels, maxDimension: limits.maxDimension }),
      { maxPixels, maxDimension: limits.maxDimension },
    );
  return invalid(codes.unreadable, 'the image cannot be decoded');
}

/** Runs at most `n` jobs at once, in arrival order. */
function semaphore(n: number) {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async <T>(job: () => Promise<T>): Promise<T> => {
    if (running < n) running++;
    // A finishing job hands its slot straight to the next in line, so a newcomer cannot slip in between.
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await job();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  };
}
export { createLibheifDecoder } from './libheif-decoder.js';
