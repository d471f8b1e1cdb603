import type { MediaContentType } from '@tributary/domain';

/** The upload limits a media processor enforces (BUILDER_MEDIA_* in docs/configuration.md). */
export interface MediaLimits {
  /** Bytes of one upload, before processing. */
  maxBytes: number;
  /** Pixels of one image, every frame of an animation counted: the guard on what is decoded at all. */
  maxPixels: number;
  /** Width or height of one image (one frame), in pixels. */
  maxDimension: number;
  /** A longer side than this is scaled down to it on the way in; absent: stored at its own size. */
  longEdge?: number;
}

/** An upload after processing: the bytes to store and what they are. */
export interface ProcessedImage {
  bytes: Buffer;
  contentType: MediaContentType;
  /** One frame's size. */
  width: number;
  height: number;
}

/**
 * Turns uploaded bytes into the image the builder stores (docs/builder.md#media): the type decided from
 * the bytes alone; JPEG, PNG, WebP, GIF and AVIF accepted, and HEIC/HEIF when the processor has a
 * HeifDecoder (stored as JPEG), anything else (SVG, text, …) refused; the limits checked before anything
 * is decoded; the image auto-oriented, scaled down to `longEdge`, and re-encoded in its own type
 * with every metadata block (EXIF, GPS, XMP, IPTC, comments, ICC) dropped and its colours in sRGB.
 * Refuses with `builder.media_too_large`, `builder.media_unsupported_type`, `builder.media_unreadable`
 * or `builder.media_too_many_pixels`.
 */
export interface MediaProcessor {
  readonly limits: MediaLimits;
  process(bytes: Uint8Array): Promise<ProcessedImage>;
  /**
   * A small WebP of stored (already processed) bytes: at most `maxSide` pixels a side, never enlarged,
   * an animation's first frame, no metadata. Raster formats only: anything else is refused
   * (`builder.media_unsupported_type`), so a thumbnail is never an SVG or any document.
   */
  thumbnail(bytes: Uint8Array, maxSide: number): Promise<{ bytes: Buffer; contentType: 'image/webp' }>;
}
