// The assistant's attachments (svc.assistant.add_attachment and loadAttachmentForModel) on the real
// pipeline over the in-memory log, with the real sharp processor on pictures made in the test.
import { loadAttachmentForModel, type BlobStore } from '@tributary/services';
import { images } from '@tributary/test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, test } from 'vitest';
import { unitInstance, type UnitAccount, type UnitInstance } from './given-when-then.js';

interface Answer {
  attachmentId: string;
  mediaType: string;
  width: number;
  height: number;
  bytes: number;
}

const b64 = (bytes: Buffer) => bytes.toString('base64');
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** Counts what reaches the blob store, so a refusal can be shown to store nothing. */
function countPuts(t: UnitInstance): { puts: number } {
  const counter = { puts: 0 };
  const inner: BlobStore = t.services.assistantAttachments.blobs;
  t.services.assistantAttachments.blobs = {
    put: (bytes) => {
      counter.puts++;
      return inner.put(bytes);
    },
    get: (sha) => inner.get(sha),
    has: (sha) => inner.has(sha),
  };
  return counter;
}

async function attach(t: UnitInstance, who: UnitAccount, bytes: Buffer, extra: Record<string, unknown> = {}) {
  return (
    await t.when<Answer>('svc.assistant.add_attachment', { content: b64(bytes), ...extra }, who.principal)
  ).result;
}

describe('svc.assistant.add_attachment', () => {
  test('given a JPEG with GPS, when attached, then assistant.attachment_added records the re-encoded bytes, stored under their hash, without metadata', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const r = await t.when<Answer>(
      'svc.assistant.add_attachment',
      { content: b64(await images.jpegWithGps()) },
      ada.principal,
    );
    const answer = r.thenEvents([
      {
        type: 'assistant.attachment_added',
        data: { ownerAgentId: ada.agentId, mediaType: 'image/jpeg', width: 32, height: 64 },
      },
    ]);
    assert.deepEqual(Object.keys(answer).sort(), ['attachmentId', 'bytes', 'height', 'mediaType', 'width']);
    assert.equal(r.events[0]!.stream, `aattach-${answer.attachmentId}`);
    const data = r.events[0]!.data as { sha256: string; blobKey: string; bytes: number };
    assert.equal(data.blobKey, data.sha256);
    const stored = await t.services.assistantAttachments.blobs.get(data.sha256);
    assert.ok(stored, 'the bytes are in the blob store');
    assert.equal(sha256(stored), data.sha256);
    assert.equal(stored.length, answer.bytes);
    for (const mark of images.GPS_MARKS) assert.equal(stored.includes(mark), false, `${mark} is gone`);
    assert.equal((await images.describeImage(stored)).exif, undefined);
  });

  test('given PNG, JPEG, WebP and GIF bytes, then each keeps its type, decided from the bytes', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const cases: [Buffer, string][] = [
      [await images.png(41, 31), 'image/png'],
      [await images.jpegWithP3Profile(), 'image/jpeg'],
      [await images.webp(42, 32), 'image/webp'],
      [await images.animatedGif(1, 43, 33), 'image/gif'],
    ];
    for (const [bytes, type] of cases) assert.equal((await attach(t, ada, bytes)).mediaType, type);
  });

  test('given an animated GIF, then only its first frame is kept', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const a = await attach(t, ada, await images.animatedGif(4, 20, 10));
    assert.deepEqual([a.mediaType, a.width, a.height], ['image/gif', 20, 10]);
    const { data } = await loadAttachmentForModel(t.services, ada.agentId, a.attachmentId);
    assert.equal((await images.describeImage(Buffer.from(data))).pages, 1);
  });

  test('given the same picture attached twice by the same owner, then the same id and one event', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const bytes = await images.png();
    const first = await attach(t, ada, bytes);
    const again = (
      await t.when<Answer>('svc.assistant.add_attachment', { content: b64(bytes) }, ada.principal)
    ).thenEvents([]);
    assert.deepEqual(again, first);
    // Two at once: one of them loses on the stream's version and answers the same attachment.
    const webp = await images.webp();
    const [x, y] = await Promise.all([attach(t, ada, webp), attach(t, ada, webp)]);
    assert.deepEqual(x, y);
    assert.equal(t.store.all().filter((e) => e.type === 'assistant.attachment_added').length, 2);
  });

  test('given the same picture attached by two owners, then two attachments, one of each', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const bob = await t.signUp('bob');
    const bytes = await images.png();
    assert.notEqual((await attach(t, ada, bytes)).attachmentId, (await attach(t, bob, bytes)).attachmentId);
  });

  test('given a persona the person owns as targetAgentId, then the attachment is the persona’s', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const persona = (
      await t.when<{ agentId: string }>('svc.agent.create_persona', { name: 'Cook' }, ada.principal)
    ).result;
    const a = await attach(t, ada, await images.png(), { targetAgentId: persona.agentId });
    await loadAttachmentForModel(t.services, persona.agentId, a.attachmentId);
    await assert.rejects(loadAttachmentForModel(t.services, ada.agentId, a.attachmentId), {
      code: 'assistant.attachment_not_found',
    });
  });

  test('given text, an SVG, HEIC, AVIF, a decompression bomb, a picture too wide, bytes over the limit or a truncated PNG, then the stable code, no event and nothing stored', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const counter = countPuts(t);
    const png = await images.png(200, 200);
    const cases: [Buffer, string][] = [
      [Buffer.from('not a picture at all'), 'assistant.attachment_unsupported_type'],
      [images.svgWithScript(), 'assistant.attachment_unsupported_type'],
      [images.heicSignature(), 'assistant.attachment_unsupported_type'],
      // AVIF is a builder type, not one the assistant takes.
      [await images.avif(), 'assistant.attachment_unsupported_type'],
      [images.pngClaiming(6_000, 6_000), 'assistant.attachment_too_many_pixels'],
      [await images.png(8_001, 1), 'assistant.attachment_too_many_pixels'],
      [Buffer.alloc(5 * 1024 * 1024 + 1), 'assistant.attachment_too_large'],
      [png.subarray(0, png.length - 40), 'assistant.attachment_unreadable'],
    ];
    for (const [bytes, code] of cases)
      (await t.when('svc.assistant.add_attachment', { content: b64(bytes) }, ada.principal)).thenError(code);
    assert.equal(counter.puts, 0);
  });

  test('given content that is not base64 or an unknown field, then input.invalid; someone else’s agent, agent.not_found', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const bob = await t.signUp('bob');
    const png = b64(await images.png());
    for (const input of [{ content: 'not base64!' }, { content: 'abc' }, { content: png, filename: 'x.png' }])
      (await t.when('svc.assistant.add_attachment', input, ada.principal)).thenError('input.invalid');
    (
      await t.when(
        'svc.assistant.add_attachment',
        { targetAgentId: bob.agentId, content: png },
        ada.principal,
      )
    ).thenError('agent.not_found');
  });
});

describe('loadAttachmentForModel', () => {
  test('given the owner, then the stored bytes and their type', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const a = await attach(t, ada, await images.webp(12, 9));
    const loaded = await loadAttachmentForModel(t.services, ada.agentId, a.attachmentId);
    assert.equal(loaded.mediaType, 'image/webp');
    assert.ok(loaded.data instanceof Uint8Array);
    assert.equal(loaded.data.byteLength, a.bytes);
    const seen = await images.describeImage(Buffer.from(loaded.data));
    assert.deepEqual([seen.format, seen.width, seen.height], ['webp', 12, 9]);
  });

  test('given another owner, an unknown id or a malformed id, then 404 assistant.attachment_not_found', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const bob = await t.signUp('bob');
    const a = await attach(t, ada, await images.png());
    for (const [owner, id] of [
      [bob.agentId, a.attachmentId],
      [ada.agentId, '00000000-0000-8000-8000-000000000000'],
      [ada.agentId, '../../etc/passwd'],
    ] as const)
      await assert.rejects(loadAttachmentForModel(t.services, owner, id), {
        code: 'assistant.attachment_not_found',
        kind: 'not_found',
      });
  });
});
