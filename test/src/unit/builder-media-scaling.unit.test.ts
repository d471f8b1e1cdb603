// Large photos scaled down on the way in, HEIC through the HeifDecoder port, and the decode guard kept:
// svc.builder.upload_media on the real pipeline with the real sharp processor and libheif decoder, and
// the decoder port on its own.
import type { BlobStore } from '@tributary/services';
import { bytesInWords, mediaTooManyPixelsMessage, pixelsInWords } from '@tributary/domain';
import { createLibheifDecoder, DEFAULT_MEDIA_LIMITS, HEIF_MAX_PIXELS } from '@tributary/infra';
import assert from 'node:assert/strict';
import sharp from 'sharp';
import { describe, test } from 'vitest';
import { images } from '@tributary/test';
import { unitInstance, type UnitInstance } from './given-when-then.js';

interface MediaAnswer {
  media: { mediaId: string; sha256: string; contentType: string; width: number; height: number };
  created: boolean;
}

const b64 = (bytes: Buffer) => bytes.toString('base64');

function countPuts(t: UnitInstance): { puts: number } {
  const counter = { puts: 0 };
  const inner: BlobStore = t.services.builder.blobs;
  t.services.builder.blobs = {
    put: (bytes) => {
      counter.puts++;
      return inner.put(bytes);
    },
    get: (sha) => inner.get(sha),
    has: (sha) => inner.has(sha),
  };
  return counter;
}

describe('large photos are scaled down on the way in', () => {
  test('given a 60-megapixel JPEG, when uploaded, then it is stored as a JPEG 4096 pixels on its long edge', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const bytes = await images.bigJpeg(9600, 6250);
    const r = await t.when<MediaAnswer>(
      'svc.builder.upload_media',
      { content: b64(bytes), filename: 'phone.jpg' },
      ada.principal,
    );
    const { media } = r.thenEvents([
      { type: 'media.uploaded', data: { contentType: 'image/jpeg', width: 4096, height: 2667 } },
    ]);
    const stored = await t.services.builder.blobs.get(media.sha256);
    assert.ok(stored);
    const meta = await sharp(stored).metadata();
    assert.deepEqual([meta.format, meta.width, meta.height], ['jpeg', 4096, 2667]);
    // The halves are still where they were: the left dark blue, the right orange.
    const { data } = await sharp(stored)
      .extract({ left: 10, top: 10, width: 1, height: 1 })
      .raw()
      .toBuffer({ resolveWithObject: true });
    assert.ok(data[2]! > data[0]!, 'left half stays blue');
  });

  test('given a tall PNG and a small one, then the tall one is scaled by its long edge and the small one is never enlarged', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const tall = await t.when<MediaAnswer>(
      'svc.builder.upload_media',
      { content: b64(await images.png(200, 5000)) },
      ada.principal,
    );
    assert.deepEqual(
      [tall.result.media.contentType, tall.result.media.width, tall.result.media.height],
      ['image/png', 164, 4096],
    );
    const small = await t.when<MediaAnswer>(
      'svc.builder.upload_media',
      { content: b64(await images.png(40, 30)) },
      ada.principal,
    );
    assert.deepEqual([small.result.media.width, small.result.media.height], [40, 30]);
  });

  test('given headers claiming more than the decode guard (a PNG of 144 MP, a HEIC of 144 MP), then builder.media_too_many_pixels, no event and nothing stored', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const counter = countPuts(t);
    for (const bytes of [images.pngClaiming(12_000, 12_000), images.heicClaiming(12_000, 12_000)])
      (await t.when('svc.builder.upload_media', { content: b64(bytes) }, ada.principal)).thenError(
        'builder.media_too_many_pixels',
      );
    // A HEIC is decoded whole, so its own guard is lower: 8000×8100 (64.8 MP) is over it.
    (
      await t.when(
        'svc.builder.upload_media',
        { content: b64(images.heicClaiming(8000, 8100)) },
        ada.principal,
      )
    ).thenError('builder.media_too_many_pixels');
    assert.equal(counter.puts, 0);
    assert.equal(t.store.all().filter((e) => e.type === 'media.uploaded').length, 0);
  });
});

describe('HEIC/HEIF photos', () => {
  test('given a real HEIC, when uploaded, then it is stored as a JPEG of its size and colours, without its container', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const r = await t.when<MediaAnswer>(
      'svc.builder.upload_media',
      { content: b64(images.heicPhoto()), filename: 'IMG_0001.HEIC' },
      ada.principal,
    );
    const { media } = r.thenEvents([
      {
        type: 'media.uploaded',
        data: { contentType: 'image/jpeg', width: 120, height: 80, filename: 'IMG_0001.HEIC' },
      },
    ]);
    const stored = await t.services.builder.blobs.get(media.sha256);
    assert.ok(stored);
    assert.equal((await sharp(stored).metadata()).format, 'jpeg');
    // Left half: blue 200; right half: blue 40 (lossy both ways, so within a margin).
    const px = async (left: number) =>
      (await sharp(stored).extract({ left, top: 40, width: 1, height: 1 }).raw().toBuffer())[2]!;
    assert.ok(Math.abs((await px(20)) - 200) < 30, 'left half blue ~200');
    assert.ok(Math.abs((await px(100)) - 40) < 30, 'right half blue ~40');
  });

  test('given only a HEIC signature (truncated), then builder.media_unreadable and nothing stored', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const counter = countPuts(t);
    (
      await t.when('svc.builder.upload_media', { content: b64(images.heicSignature()) }, ada.principal)
    ).thenError('builder.media_unreadable');
    assert.equal(counter.puts, 0);
  });
});

describe('the HeifDecoder port (libheif in a worker)', () => {
  const decoder = createLibheifDecoder();

  test('given the HEIC, then its primary image as RGBA pixels', async () => {
    const r = await decoder.decode(images.heicPhoto(), HEIF_MAX_PIXELS);
    assert.ok(r.ok);
    assert.deepEqual([r.image.width, r.image.height, r.image.rgba.length], [120, 80, 120 * 80 * 4]);
    assert.equal(r.image.rgba[3], 255, 'opaque');
  });

  test('given a file over maxPixels, then too_many_pixels with its size, before anything is decoded', async () => {
    assert.deepEqual(await decoder.decode(images.heicPhoto(), 9_599), {
      ok: false,
      reason: 'too_many_pixels',
      width: 120,
      height: 80,
    });
    const bomb = await decoder.decode(images.heicClaiming(30_000, 30_000), HEIF_MAX_PIXELS);
    assert.deepEqual(bomb, { ok: false, reason: 'too_many_pixels', width: 30_000, height: 30_000 });
  });

  test('given bytes that are not HEIF, a truncated HEIC, or a decode past its time, then unreadable', async () => {
    for (const bytes of [
      Buffer.from('not an image'),
      images.heicSignature(),
      images.heicPhoto().subarray(0, 400),
    ])
      assert.deepEqual(await decoder.decode(bytes, HEIF_MAX_PIXELS), { ok: false, reason: 'unreadable' });
    const hasty = createLibheifDecoder({ timeoutMs: 1 });
    assert.deepEqual(await hasty.decode(images.heicPhoto(), HEIF_MAX_PIXELS), {
      ok: false,
      reason: 'unreadable',
    });
  });
});

describe('limits in words', () => {
  test('bytes and pixels read as people say them', () => {
    assert.equal(bytesInWords(DEFAULT_MEDIA_LIMITS.maxBytes), '10 MB');
    assert.equal(bytesInWords(12.34 * 1024 * 1024), '12.3 MB');
    assert.equal(bytesInWords(1536), '1.5 KB');
    assert.equal(pixelsInWords(DEFAULT_MEDIA_LIMITS.maxPixels), '110 megapixels');
    assert.equal(pixelsInWords(48_000_000), '48 megapixels');
    assert.match(
      mediaTooManyPixelsMessage(
        { maxPixels: 64_000_000, maxDimension: 16_383 },
        { width: 12_000, height: 12_000 },
      ),
      /at most 64 megapixels .* 12000×12000 \(144 megapixels\)/,
    );
  });
});
