// The builder's media processor (docs/builder.md#media) on sharp (libvips) and file-type.
// - The type is decided from the bytes by file-type's signatures, never from a name or a header, and only
//   raster formats are accepted: an SVG is a document that can carry script, so it never reaches a decoder.
// - The limits are checked on the header (sharp's metadata reads no pixel data) before anything is
//   decoded, and again by sharp's own `limitInputPixels` while decoding, so a small file claiming
//   gigapixels (a decompression bomb) costs nothing.
// - Re-encoding in the upload's own type drops everything but pixels: EXIF (GPS included), XMP, IPTC,
//   comments, the ICC profile (colours are converted to sRGB first) and anything appended after the
//   image data, so a polyglot file loses its second life. AVIF is decoded but stored as WebP: encoding
//   AVIF takes tens of seconds per image on a small server.
// The assistant's attachments use the same processor with options of their own: fewer types, the first
// frame of an animation only, and their own refusal codes (docs/assistant.md#attachments).
import { domainError, invalid, type CodeOfKind, type MediaContentType } from '@tributary/domain';
import type { MediaLimits, MediaProcessor, ProcessedImage } from '@tributary/services';
import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';

/** The documented defaults (docs/configuration.md). */
export const DEFAULT_MEDIA_LIMITS: MediaLimits = {
  maxBytes: 10 * 1024 * 1024,
  maxPixels: 40_000_000,
  maxDimension: 16_383,
};

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
}

function policyOf(limits: MediaLimits, o: MediaProcessorOptions): Policy {
  const accept = o.accept ?? (Object.keys(TYPE_NAMES) as MediaContentType[]);
  const accepted = Object.fromEntries(
    Object.entries(ACCEPTED).filter(([type]) =>
      accept.includes((type === 'image/apng' ? 'image/png' : type) as MediaContentType),
    ),
  );
  const names = accept.map((t) => TYPE_NAMES[t]);
  const hint = `upload a ${names.slice(0, -1).join(', ')}${names.length > 1 ? ' or ' : ''}${names.at(-1)} image`;
  return { limits, accepted, stillsOnly: o.stillsOnly ?? false, codes: o.codes ?? BUILDER_CODES, hint };
}

const QUALITY = 85;
/** Decoding a 40-megapixel image takes about 160 MB: at most this many run at once, the rest queue. */
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
          `an upload is at most ${limits.maxBytes} bytes`,
          {
            maxBytes: limits.maxBytes,
          },
        );
      const bytes = Buffer.from(input.buffer, input.byteOffset, input.byteLength);
      const detected = (await fileTypeFromBuffer(bytes))?.mime;
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
  if (
    width > limits.maxDimension ||
    height > limits.maxDimension ||
    width * height * frames > limits.maxPixels
  )
    throw domainError(codes.tooManyPixels, 'too_large', 'the image is too large in pixels', {
      width,
      height,
      frames,
      maxPixels: limits.maxPixels,
      maxDimension: limits.maxDimension,
    });
  const image = sharp(bytes, {
    animated: frames > 1,
    // EXIF orientation is applied to the pixels, since the tag itself goes with the rest of the metadata.
    autoOrient: frames === 1,
    limitInputPixels: limits.maxPixels,
    failOn: 'error',
  })
    .timeout({ seconds: TIMEOUT_SECONDS })
    .toColourspace('srgb');
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

/** What a libvips failure means to the uploader: over the pixel limit (checked on the header), or unreadable. */
function refusalOf(e: unknown, { limits, codes }: Policy) {
  if (e instanceof Error && /pixel limit/i.test(e.message))
    return domainError(codes.tooManyPixels, 'too_large', 'the image is too large in pixels', {
      maxPixels: limits.maxPixels,
      maxDimension: limits.maxDimension,
    });
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
