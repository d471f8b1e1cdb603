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
import { domainError, invalid, type MediaContentType } from '@tributary/domain';
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

const QUALITY = 85;
/** Decoding a 40-megapixel image takes about 160 MB: at most this many run at once, the rest queue. */
const CONCURRENT_JOBS = 2;
const TIMEOUT_SECONDS = 30;

export function createSharpMediaProcessor(limits: MediaLimits = DEFAULT_MEDIA_LIMITS): MediaProcessor {
  // One image is rarely processed twice: libvips' operation cache would only hold memory.
  sharp.cache(false);
  const slots = semaphore(CONCURRENT_JOBS);
  return {
    limits,
    async process(input) {
      if (input.byteLength > limits.maxBytes)
        throw domainError(
          'builder.media_too_large',
          'too_large',
          `an upload is at most ${limits.maxBytes} bytes`,
          {
            maxBytes: limits.maxBytes,
          },
        );
      const bytes = Buffer.from(input.buffer, input.byteOffset, input.byteLength);
      const detected = (await fileTypeFromBuffer(bytes))?.mime;
      const accepted = detected === undefined ? undefined : ACCEPTED[detected];
      if (!accepted)
        throw invalid('builder.media_unsupported_type', 'upload a JPEG, PNG, WebP, GIF or AVIF image', {
          detected: detected ?? null,
        });
      return slots(() => reencode(bytes, accepted, limits));
    },
  };
}

async function reencode(
  bytes: Buffer,
  accepted: (typeof ACCEPTED)[string],
  limits: MediaLimits,
): Promise<ProcessedImage> {
  const meta = await sharp(bytes, { limitInputPixels: limits.maxPixels })
    .metadata()
    .catch((e: unknown) => {
      throw refusalOf(e, limits);
    });
  // HEIC shares AVIF's container; only the AV1-coded kind is AVIF.
  if (meta.format !== accepted.format || (meta.format === 'heif' && meta.compression !== 'av1'))
    throw invalid('builder.media_unsupported_type', 'upload a JPEG, PNG, WebP, GIF or AVIF image', {
      detected:
        meta.format === 'heif' ? `image/heif (${meta.compression ?? 'unknown'})` : `image/${meta.format}`,
    });
  const frames = accepted.animated ? Math.max(1, meta.pages ?? 1) : 1;
  const { width, height } = meta; // one frame's size
  if (!width || !height) throw invalid('builder.media_unreadable', 'the image has no size');
  if (
    width > limits.maxDimension ||
    height > limits.maxDimension ||
    width * height * frames > limits.maxPixels
  )
    throw domainError('builder.media_too_many_pixels', 'too_large', 'the image is too large in pixels', {
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
    throw refusalOf(e, limits);
  });
  return {
    bytes: data,
    contentType: accepted.output,
    width: info.width,
    height: info.pageHeight ?? info.height,
  };
}

/** What a libvips failure means to the uploader: over the pixel limit (checked on the header), or unreadable. */
function refusalOf(e: unknown, limits: MediaLimits) {
  if (e instanceof Error && /pixel limit/i.test(e.message))
    return domainError('builder.media_too_many_pixels', 'too_large', 'the image is too large in pixels', {
      maxPixels: limits.maxPixels,
      maxDimension: limits.maxDimension,
    });
  return invalid('builder.media_unreadable', 'the image cannot be decoded');
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
