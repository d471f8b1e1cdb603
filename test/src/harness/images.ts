// Real images for the media tests, made by sharp in the test itself (no binary fixtures), and the few
// hand-made byte strings a decoder would never write: a header claiming gigapixels, a HEIC signature.
import sharp from 'sharp';
import { readFileSync } from 'node:fs';
import { crc32 } from 'node:zlib';

const solid = (width: number, height: number, background = '#c03') =>
  sharp({ create: { width, height, channels: 3, background } });

/** A 64×32 JPEG (as stored; it shows 32×64) with EXIF: orientation 6, a camera make and a GPS position. */
export const jpegWithGps = () =>
  solid(64, 32)
    .jpeg()
    .withMetadata({ orientation: 6 })
    .withExifMerge({
      IFD0: { Make: 'TestCamMaker' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 0/1', GPSMapDatum: 'WGS-84' },
    })
    .toBuffer();

/** The marks `jpegWithGps` plants in its EXIF, to show they are there before and gone after. */
export const GPS_MARKS = ['TestCamMaker', 'WGS-84'];

export const png = (width = 40, height = 30, background = '#09f') =>
  solid(width, height, background).png().toBuffer();
export const webp = (width = 40, height = 30) => solid(width, height, '#3a3').webp().toBuffer();
export const avif = (width = 40, height = 30) => solid(width, height, '#33a').avif({ effort: 0 }).toBuffer();
/** A PNG of random-looking pixels: it compresses badly, so it is about 3 bytes a pixel. */
export const noisyPng = (width: number, height: number) =>
  sharp({
    create: {
      width,
      height,
      channels: 3,
      background: '#000',
      noise: { type: 'gaussian', mean: 128, sigma: 60 },
    },
  })
    .png()
    .toBuffer();
/** A JPEG tagged with the Display P3 profile instead of sRGB. */
export const jpegWithP3Profile = () => solid(40, 30).jpeg().withIccProfile('p3').toBuffer();

/** An animated GIF of `frames` frames of `width`×`height`, each a different colour. */
export function animatedGif(frames = 3, width = 20, height = 10): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 4 * frames);
  for (let f = 0; f < frames; f++)
    for (let i = 0; i < width * height; i++) {
      const o = (f * width * height + i) * 4;
      raw[o] = (f * 70) % 256;
      raw[o + 1] = 255 - ((f * 40) % 256);
      raw[o + 2] = (f * 25) % 256;
      raw[o + 3] = 255;
    }
  return sharp(raw, { raw: { width, height: height * frames, channels: 4, pageHeight: height } })
    .gif({ delay: Array.from({ length: frames }, () => 100), loop: 0 })
    .toBuffer();
}

const chunk = (type: string, data: Buffer) => {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
};

/**
 * A decompression bomb's opening: a valid PNG signature and header claiming `width`×`height` pixels,
 * followed by a few bytes of image data. Tiny on the wire; decoding it would need gigabytes.
 */
export function pngClaiming(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, deflate, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', Buffer.from([0x78, 0x9c, 0x63, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01])),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The opening of a HEIC file (an ISO-BMFF `ftyp` box with the `heic` brand). */
export const heicSignature = () =>
  Buffer.concat([
    Buffer.from([0, 0, 0, 0x18]),
    Buffer.from('ftypheic', 'latin1'),
    Buffer.from([0, 0, 0, 0]),
    Buffer.from('mif1heic', 'latin1'),
    Buffer.alloc(64),
  ]);

/**
 * A real HEIC (HEVC-coded, 120×80, a red-green gradient with a blue left half): the one binary fixture,
 * since nothing on npm encodes HEVC (test/vectors/heic/README.md says how it was made).
 */
export const heicPhoto = () => readFileSync(new URL('../../vectors/heic/photo-120x80.heic', import.meta.url));

/**
 * The same HEIC with its image-size box (`ispe`) claiming `width`×`height`: a decompression bomb's
 * header over 757 bytes.
 */
export function heicClaiming(width: number, height: number): Buffer {
  const bytes = Buffer.from(heicPhoto());
  const at = bytes.indexOf('ispe', 0, 'latin1');
  bytes.writeUInt32BE(width, at + 8);
  bytes.writeUInt32BE(height, at + 12);
  return bytes;
}

/** A large JPEG (a phone photo's size in pixels) that stays small in bytes: two flat halves. */
export const bigJpeg = (width: number, height: number) =>
  solid(width, height, '#d84')
    .composite([
      {
        input: { create: { width: Math.floor(width / 2), height, channels: 3, background: '#248' } },
        left: 0,
        top: 0,
      },
    ])
    .jpeg({ quality: 80 })
    .toBuffer();

/** An SVG whose script would report to `beacon` if anything ever ran it. */
export const svgWithScript = (beacon = '/beacon') =>
  Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10" onload="fetch('${beacon}?onload')">` +
      `<script>fetch('${beacon}?script')</script><rect width="10" height="10"/></svg>`,
  );

/** What a decoded image is: its format, size, frames and every metadata block sharp reports. */
export async function describeImage(bytes: Buffer) {
  const m = await sharp(bytes, { animated: true }).metadata();
  return {
    format: m.format,
    width: m.width,
    height: m.pageHeight ?? m.height,
    pages: m.pages ?? 1,
    exif: m.exif,
    icc: m.icc,
    xmp: m.xmp,
    iptc: m.iptc,
    orientation: m.orientation,
  };
}
