/** One picture's pixels: RGBA, four bytes a pixel, row after row. */
export interface DecodedPixels {
  width: number;
  height: number;
  rgba: Uint8Array;
}

/** What a decode came to: the pixels, or why there are none (the processor turns these into codes). */
export type HeifDecodeResult =
  | { ok: true; image: DecodedPixels }
  /** The primary image's size (read from the file before any pixel is decoded) is over `maxPixels`. */
  | { ok: false; reason: 'too_many_pixels'; width: number; height: number }
  /** Not a HEIF file, no image in it, a codec the decoder lacks, corrupt data, or over the time allowed. */
  | { ok: false; reason: 'unreadable' };

/**
 * Decodes HEIC/HEIF photos (the iPhone's default), which the media processor's own decoder cannot: the
 * HEVC codec they are coded with is not in sharp's prebuilt libvips (docs/builder.md#media). Only the
 * file's primary image is decoded, and only once its size, read from the file's header, is at most
 * `maxPixels`: the decompression guard holds on decoded pixels here too. Filled in
 * infra/src/compose/compose-builder.ts; a media processor given none refuses HEIC as an unsupported type.
 */
export interface HeifDecoder {
  decode(bytes: Uint8Array, maxPixels: number): Promise<HeifDecodeResult>;
}
