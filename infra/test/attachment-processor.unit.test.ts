// The assistant's picture processor: the builder's sharp processor run with the assistant's options
// (four types, the first frame only, its own refusal codes and limits), on real images made in the test.
// The builder's own processor keeps its behaviour: the options are per processor.
import { isDomainError } from '@tributary/domain';
import {
  createAttachmentProcessor,
  createSharpMediaProcessor,
  DEFAULT_ATTACHMENT_LIMITS,
} from '@tributary/infra';
import { images } from '@tributary/test';
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';

const attachments = createAttachmentProcessor();
const media = createSharpMediaProcessor();

async function codeOf(p: Promise<unknown>): Promise<{ code: string; details: Record<string, unknown> }> {
  try {
    await p;
  } catch (e) {
    if (isDomainError(e)) return { code: e.code, details: e.details ?? {} };
    throw e;
  }
  assert.fail('expected a refusal');
}

describe('the attachment processor', () => {
  test('given its defaults, then 5 MiB, 25 megapixels and an 8,000-pixel side', () => {
    assert.deepEqual(attachments.limits, {
      maxBytes: 5 * 1024 * 1024,
      maxPixels: 25_000_000,
      maxDimension: 8_000,
    });
    assert.deepEqual(DEFAULT_ATTACHMENT_LIMITS, attachments.limits);
  });

  test('given an animated GIF, then only the first frame is kept and counted; the builder keeps every frame', async () => {
    const gif = await images.animatedGif(5, 20, 10);
    const still = await attachments.process(gif);
    assert.deepEqual([still.contentType, still.width, still.height], ['image/gif', 20, 10]);
    assert.equal((await images.describeImage(still.bytes)).pages, 1);
    const animated = await media.process(gif);
    assert.equal((await images.describeImage(animated.bytes)).pages, 5);
    // Counted per first frame: 20×10 fits 250 pixels, five frames would not.
    const small = createAttachmentProcessor({ maxBytes: 1 << 20, maxPixels: 250 });
    assert.equal((await small.process(gif)).width, 20);
  });

  test('given AVIF, then refused with the assistant code; the builder takes it', async () => {
    const avif = await images.avif();
    const r = await codeOf(attachments.process(avif));
    assert.equal(r.code, 'assistant.attachment_unsupported_type');
    assert.equal(r.details.detected, 'image/avif');
    assert.equal((await media.process(avif)).contentType, 'image/webp');
  });

  test('given each refusal, then the assistant codes, never the builder’s', async () => {
    const tiny = createAttachmentProcessor({ maxBytes: 2048, maxPixels: 1000 });
    const png = await images.png(60, 60);
    // Thunks: each picture is processed only when its refusal is awaited.
    const noisy = await images.noisyPng(60, 60);
    const small = await images.png(40, 30);
    const cases: [() => Promise<unknown>, string][] = [
      [() => tiny.process(noisy), 'assistant.attachment_too_large'],
      [() => tiny.process(small), 'assistant.attachment_too_many_pixels'],
      [() => attachments.process(images.pngClaiming(9_000, 10)), 'assistant.attachment_too_many_pixels'],
      [() => attachments.process(images.svgWithScript()), 'assistant.attachment_unsupported_type'],
      [() => attachments.process(png.subarray(0, png.length - 40)), 'assistant.attachment_unreadable'],
    ];
    for (const [run, code] of cases) assert.equal((await codeOf(run())).code, code);
  });
});
