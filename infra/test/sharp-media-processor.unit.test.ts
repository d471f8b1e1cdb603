// The media processor on real images made by sharp in the test: the type from the bytes, the limits
// before decoding, and re-encoding that leaves nothing but pixels.
import { isDomainError } from '@tributary/domain';
import { createSharpMediaProcessor, DEFAULT_MEDIA_LIMITS } from '@tributary/infra';
import { images } from '@tributary/test';
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';

const processor = createSharpMediaProcessor();

async function refusal(p: Promise<unknown>): Promise<{ code: string; details: Record<string, unknown> }> {
  try {
    await p;
  } catch (e) {
    if (isDomainError(e)) return { code: e.code, details: e.details ?? {} };
    throw e;
  }
  assert.fail('expected a refusal');
}

describe('the media processor', () => {
  test('given a JPEG with EXIF orientation and a GPS position, then it is turned upright and every metadata block is gone', async () => {
    const input = await images.jpegWithGps();
    const before = await images.describeImage(input);
    assert.equal(before.orientation, 6);
    for (const mark of images.GPS_MARKS) assert.ok(before.exif?.includes(mark), `the input carries ${mark}`);

    const out = await processor.process(input);
    assert.equal(out.contentType, 'image/jpeg');
    assert.deepEqual([out.width, out.height], [32, 64]);
    const after = await images.describeImage(out.bytes);
    assert.deepEqual(
      { format: after.format, width: after.width, height: after.height },
      { format: 'jpeg', width: 32, height: 64 },
    );
    assert.equal(after.exif, undefined);
    assert.equal(after.xmp, undefined);
    assert.equal(after.iptc, undefined);
    assert.equal(after.icc, undefined);
    for (const mark of images.GPS_MARKS) assert.equal(out.bytes.includes(mark), false, `${mark} is gone`);
  });

  test('given a JPEG with a Display P3 profile, then it is converted to sRGB and stored without a profile', async () => {
    const input = await images.jpegWithP3Profile();
    assert.ok((await images.describeImage(input)).icc);
    const out = await processor.process(input);
    assert.equal((await images.describeImage(out.bytes)).icc, undefined);
  });

  test('given PNG bytes (whatever the name), then the item is a PNG', async () => {
    const out = await processor.process(await images.png(40, 30));
    assert.deepEqual([out.contentType, out.width, out.height], ['image/png', 40, 30]);
    assert.equal((await images.describeImage(out.bytes)).format, 'png');
  });

  test('given WebP, then WebP; given AVIF, then it is stored as WebP', async () => {
    const w = await processor.process(await images.webp());
    assert.equal(w.contentType, 'image/webp');
    const a = await processor.process(await images.avif(40, 30));
    assert.deepEqual([a.contentType, a.width, a.height], ['image/webp', 40, 30]);
    assert.equal((await images.describeImage(a.bytes)).format, 'webp');
  });

  test('given an animated GIF, then every frame is kept', async () => {
    const out = await processor.process(await images.animatedGif(3, 20, 10));
    assert.deepEqual([out.contentType, out.width, out.height], ['image/gif', 20, 10]);
    assert.equal((await images.describeImage(out.bytes)).pages, 3);
  });

  test('given the same upload twice, then the same bytes come out (so they are stored once)', async () => {
    const input = await images.jpegWithGps();
    const [a, b] = await Promise.all([processor.process(input), processor.process(input)]);
    assert.ok(a.bytes.equals(b.bytes));
  });

  test('given an image with something appended (a polyglot), then the re-encoded bytes carry none of it', async () => {
    const tail = '<script>alert(1)</script>';
    const out = await processor.process(Buffer.concat([await images.png(), Buffer.from(tail)]));
    assert.equal(out.bytes.includes(tail), false);
  });

  test('given text, an SVG with a script, or a HEIC, then builder.media_unsupported_type', async () => {
    const text = await refusal(processor.process(Buffer.from('hello, I am not an image\n')));
    assert.deepEqual([text.code, text.details.detected], ['builder.media_unsupported_type', null]);
    assert.equal(
      (await refusal(processor.process(images.svgWithScript()))).code,
      'builder.media_unsupported_type',
    );
    const heic = await refusal(processor.process(images.heicSignature()));
    assert.deepEqual([heic.code, heic.details.detected], ['builder.media_unsupported_type', 'image/heic']);
    const pdf = await refusal(processor.process(Buffer.from('%PDF-1.7\n1 0 obj\n<<>>\nendobj\n')));
    assert.equal(pdf.code, 'builder.media_unsupported_type');
  });

  test('given a truncated JPEG, then builder.media_unreadable', async () => {
    const jpeg = await images.jpegWithGps();
    assert.equal((await refusal(processor.process(jpeg.subarray(0, 40)))).code, 'builder.media_unreadable');
  });

  test('given a small file whose header claims 50000×50000 or 12000×12000 pixels, then builder.media_too_many_pixels before any decoding', async () => {
    for (const side of [50_000, 12_000]) {
      const bomb = images.pngClaiming(side, side);
      assert.ok(bomb.length < 100);
      const started = performance.now();
      const r = await refusal(processor.process(bomb));
      assert.equal(r.code, 'builder.media_too_many_pixels', `${side}×${side}`);
      assert.ok(performance.now() - started < 1000, 'refused from the header, not after decoding');
    }
  });

  test('given a real image over the pixel limit, over the side limit, or an animation whose frames add up over it, then builder.media_too_many_pixels', async () => {
    const small = createSharpMediaProcessor({ maxBytes: 1 << 20, maxPixels: 1000, maxDimension: 100 });
    assert.equal(
      (await refusal(small.process(await images.png(40, 30)))).code,
      'builder.media_too_many_pixels',
    );
    assert.equal(
      (await refusal(small.process(await images.png(101, 5)))).code,
      'builder.media_too_many_pixels',
    );
    const anim = await refusal(small.process(await images.animatedGif(6, 20, 10)));
    assert.deepEqual([anim.code, anim.details.frames], ['builder.media_too_many_pixels', 6]);
    assert.equal((await small.process(await images.png(30, 30))).width, 30);
  });

  test('given bytes over the upload limit, then builder.media_too_large with the limit', async () => {
    const tiny = createSharpMediaProcessor({ ...DEFAULT_MEDIA_LIMITS, maxBytes: 100 });
    const r = await refusal(tiny.process(await images.png(40, 30)));
    assert.deepEqual([r.code, r.details.maxBytes], ['builder.media_too_large', 100]);
  });

  test('given stored images, when a thumbnail is made, then it is a WebP at most that size a side, never enlarged, the first frame of an animation, without metadata', async () => {
    const big = await processor.thumbnail(await images.png(600, 400, '#c60'), 128);
    assert.equal(big.contentType, 'image/webp');
    const b = await images.describeImage(big.bytes);
    assert.deepEqual([b.format, b.width, b.height, b.exif, b.icc], ['webp', 128, 85, undefined, undefined]);
    const small = await images.describeImage(
      (await processor.thumbnail(await images.webp(60, 40), 256)).bytes,
    );
    assert.deepEqual([small.width, small.height], [60, 40]);
    const gif = await images.describeImage(
      (await processor.thumbnail(await images.animatedGif(3, 20, 10), 64)).bytes,
    );
    assert.deepEqual([gif.format, gif.pages], ['webp', 1]);
  });

  test('given an SVG or text, when a thumbnail is asked of it, then it is refused: a thumbnail is only ever of a raster image', async () => {
    // SVG is read by libvips, and refused by the thumbnailer's own check of the format.
    assert.equal(
      (await refusal(processor.thumbnail(images.svgWithScript(), 128))).code,
      'builder.media_unsupported_type',
    );
    // Text is no image at all.
    assert.equal(
      (await refusal(processor.thumbnail(Buffer.from('<html><script>x()</script></html>'), 128))).code,
      'builder.media_unreadable',
    );
  });
});
