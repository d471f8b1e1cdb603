// The builder's media operations (upload, list, delete) on the real pipeline over the in-memory log,
// with the real sharp processor on images made in the test.
import type { BlobStore } from '@tributary/services';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, test } from 'vitest';
import { images } from '@tributary/test';
import { unitInstance, type UnitAccount, type UnitInstance } from './given-when-then.js';

interface MediaAnswer {
  media: {
    mediaId: string;
    ownerAgentId: string;
    sha256: string;
    contentType: string;
    width: number;
    height: number;
    length: number;
    filename: string;
    alt: string | null;
  };
  created: boolean;
}
interface ListAnswer {
  items: MediaAnswer['media'][];
  nextBefore: string | null;
}

const b64 = (bytes: Buffer) => bytes.toString('base64');

/** Counts what reaches the blob store, so a refusal can be shown to store nothing. */
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

async function upload(t: UnitInstance, who: UnitAccount, bytes: Buffer, extra: Record<string, unknown> = {}) {
  return (
    await t.when<MediaAnswer>('svc.builder.upload_media', { content: b64(bytes), ...extra }, who.principal)
  ).result;
}

describe('svc.builder.upload_media', () => {
  test('given a JPEG with GPS, when uploaded, then media.uploaded records the re-encoded bytes, stored under their hash', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const r = await t.when<MediaAnswer>(
      'svc.builder.upload_media',
      { content: b64(await images.jpegWithGps()), filename: '../../holiday.jpg', alt: ' the beach ' },
      ada.principal,
    );
    const { media, created } = r.thenEvents([
      {
        type: 'media.uploaded',
        data: {
          ownerAgentId: ada.agentId,
          contentType: 'image/jpeg',
          width: 32,
          height: 64,
          filename: 'holiday.jpg',
          alt: 'the beach',
        },
      },
    ]);
    assert.equal(created, true);
    assert.equal(r.events[0]!.stream, `media-${media.mediaId}`);
    const stored = await t.services.builder.blobs.get(media.sha256);
    assert.ok(stored, 'the bytes are in the blob store');
    assert.equal(createHash('sha256').update(stored).digest('hex'), media.sha256);
    assert.equal(stored.length, media.length);
    for (const mark of images.GPS_MARKS) assert.equal(stored.includes(mark), false);
    assert.equal((await images.describeImage(stored)).exif, undefined);
  });

  test('given PNG bytes named x.jpg, then the item is a PNG', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const { media } = await upload(t, ada, await images.png(), { filename: 'x.jpg' });
    assert.deepEqual([media.contentType, media.filename], ['image/png', 'x.jpg']);
  });

  test('given the same image uploaded twice by the same owner, then one item: the second answers it with created false and writes nothing', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const bytes = await images.png();
    const first = await upload(t, ada, bytes, { filename: 'a.png' });
    const again = await t.when<MediaAnswer>(
      'svc.builder.upload_media',
      { content: b64(bytes), filename: 'b.png' },
      ada.principal,
    );
    const second = again.thenEvents([]);
    assert.equal(second.created, false);
    assert.deepEqual(second.media, first.media);
    assert.equal(
      (await t.when<ListAnswer>('svc.builder.list_media', {}, ada.principal)).result.items.length,
      1,
    );
  });

  test('given two uploads of the same image at once, then one item, recorded once', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const bytes = await images.webp();
    const [a, b] = await Promise.all([upload(t, ada, bytes), upload(t, ada, bytes)]);
    assert.equal(a.media.mediaId, b.media.mediaId);
    assert.deepEqual([a.created, b.created].sort(), [false, true]);
    assert.equal(t.store.all().filter((e) => e.type === 'media.uploaded').length, 1);
  });

  test('given the same image uploaded by two owners, then each has their own item over the same stored bytes', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const bob = await t.signUp('bob');
    const bytes = await images.png();
    const a = await upload(t, ada, bytes);
    const b = await upload(t, bob, bytes);
    assert.notEqual(a.media.mediaId, b.media.mediaId);
    assert.equal(a.media.sha256, b.media.sha256);
  });

  test('given a persona the person owns as targetAgentId, then the item is the persona’s', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const persona = (
      await t.when<{ agentId: string }>('svc.agent.create_persona', { name: 'Cook' }, ada.principal)
    ).result;
    const { media } = await upload(t, ada, await images.png(), { targetAgentId: persona.agentId });
    assert.equal(media.ownerAgentId, persona.agentId);
    const mine = (await t.when<ListAnswer>('svc.builder.list_media', {}, ada.principal)).result;
    assert.equal(mine.items.length, 0);
  });

  test('given text, an SVG with a script, a decompression bomb or bytes over the limit, then the stable code, no event and nothing stored', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const counter = countPuts(t);
    const cases: [Buffer, string][] = [
      [Buffer.from('not an image at all'), 'builder.media_unsupported_type'],
      [images.svgWithScript(), 'builder.media_unsupported_type'],
      [images.heicSignature(), 'builder.media_unreadable'],
      [images.pngClaiming(50_000, 50_000), 'builder.media_too_many_pixels'],
      [Buffer.alloc(10 * 1024 * 1024 + 1), 'builder.media_too_large'],
    ];
    for (const [bytes, code] of cases)
      (
        await t.when('svc.builder.upload_media', { content: b64(bytes), filename: 'x.png' }, ada.principal)
      ).thenError(code);
    assert.equal(counter.puts, 0);
  });

  test('given content that is not base64, a bad filename type, or an unknown field, then input.invalid', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    for (const input of [
      { content: 'not base64!' },
      { content: 'abc' },
      { content: 'QUJD\nREVG' },
      { content: b64(await images.png()), filename: 7 },
      { content: b64(await images.png()), path: '/etc' },
    ])
      (await t.when('svc.builder.upload_media', input, ada.principal)).thenError('input.invalid');
  });

  test('given someone else’s agent as targetAgentId, then agent.not_found', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const bob = await t.signUp('bob');
    (
      await t.when(
        'svc.builder.upload_media',
        { targetAgentId: bob.agentId, content: b64(await images.png()) },
        ada.principal,
      )
    ).thenError('agent.not_found');
  });
});

describe('svc.builder.list_media', () => {
  test('given five items, when listed two at a time, then newest first, each page following the last', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push((await upload(t, ada, await images.png(10 + i, 10))).media.mediaId);
      t.clock.advance(1000);
    }
    const seen: string[] = [];
    let before: string | undefined;
    for (;;) {
      const page = (
        await t.when<ListAnswer>(
          'svc.builder.list_media',
          { limit: 2, ...(before && { before }) },
          ada.principal,
        )
      ).result;
      seen.push(...page.items.map((m) => m.mediaId));
      if (!page.nextBefore) break;
      before = page.nextBefore;
    }
    assert.deepEqual(seen, [...ids].reverse());
  });

  test('given someone else’s mediaId as before, then an empty page; a limit over 200, input.invalid', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const bob = await t.signUp('bob');
    const theirs = (await upload(t, bob, await images.png())).media.mediaId;
    await upload(t, ada, await images.webp());
    const page = (await t.when<ListAnswer>('svc.builder.list_media', { before: theirs }, ada.principal))
      .result;
    assert.deepEqual(page, { items: [], nextBefore: null });
    (await t.when('svc.builder.list_media', { limit: 201 }, ada.principal)).thenError('input.invalid');
  });
});

describe('svc.builder.delete_media', () => {
  test('given the owner’s unused item, when deleted, then media.deleted and it leaves the list; uploading it again brings it back', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const bytes = await images.png();
    const { media } = await upload(t, ada, bytes);
    (await t.when('svc.builder.delete_media', { mediaId: media.mediaId }, ada.principal)).thenEvents([
      { type: 'media.deleted', stream: `media-${media.mediaId}`, data: { mediaId: media.mediaId } },
    ]);
    assert.equal(
      (await t.when<ListAnswer>('svc.builder.list_media', {}, ada.principal)).result.items.length,
      0,
    );
    (await t.when('svc.builder.delete_media', { mediaId: media.mediaId }, ada.principal)).thenError(
      'builder.media_not_found',
    );
    const again = await upload(t, ada, bytes);
    assert.deepEqual([again.media.mediaId, again.created], [media.mediaId, true]);
  });

  test('given someone else’s item, then builder.media_not_found, as for an id that was never uploaded', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const bob = await t.signUp('bob');
    const { media } = await upload(t, bob, await images.png());
    (await t.when('svc.builder.delete_media', { mediaId: media.mediaId }, ada.principal)).thenError(
      'builder.media_not_found',
    );
    (
      await t.when(
        'svc.builder.delete_media',
        { mediaId: '00000000-0000-4000-8000-000000000000' },
        ada.principal,
      )
    ).thenError('builder.media_not_found');
  });

  test('given the published version of one of the owner’s sites serves the bytes, then builder.media_in_use with the site; after publishing a version without them, it can go', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const { media } = await upload(t, ada, await images.png());
    const siteId = '11111111-1111-4111-8111-111111111111';
    const site = `site-${siteId}`;
    const file = (sha256: string, path: string) => ({ path, sha256, contentType: 'image/png', length: 10 });
    const withImage = [file(media.sha256, `/_media/${media.sha256}.png`)];
    const without = [file('c'.repeat(64), '/index.html')];
    const publication = (versionId: string, manifest: typeof withImage) => [
      {
        stream: site,
        type: 'site.version_created',
        data: { versionId, draftRevision: 1, manifestHash: versionId.slice(0, 1).repeat(64), manifest },
      },
      {
        stream: site,
        type: 'site.published',
        data: {
          siteId,
          ownerAgentId: ada.agentId,
          versionId,
          manifestHash: versionId.slice(0, 1).repeat(64),
          manifest,
          title: 'Site',
        },
      },
    ];
    await t.given(ada.agentId, [
      {
        stream: site,
        type: 'site.created',
        data: { siteId, ownerAgentId: ada.agentId, title: 'Site', isDefault: false },
      },
      ...publication('a0000000-0000-4000-8000-000000000000', withImage),
    ]);
    const refused = await t.when('svc.builder.delete_media', { mediaId: media.mediaId }, ada.principal);
    refused.thenError('builder.media_in_use');
    assert.deepEqual((refused.error as { details: unknown }).details, { siteIds: [siteId] });

    await t.given(ada.agentId, publication('b0000000-0000-4000-8000-000000000000', without));
    (await t.when('svc.builder.delete_media', { mediaId: media.mediaId }, ada.principal)).thenEvents([
      { type: 'media.deleted' },
    ]);
  });
});

describe('the media read models the other builder parts use', () => {
  test('given items of two owners, then mediaHeld and renderMedia answer only the owner’s live ones', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const bob = await t.signUp('bob');
    const a1 = (await upload(t, ada, await images.png())).media;
    const a2 = (await upload(t, ada, await images.webp())).media;
    const b1 = (await upload(t, bob, await images.jpegWithGps())).media;
    await t.when('svc.builder.delete_media', { mediaId: a2.mediaId }, ada.principal);
    const read = t.services.builder.read;
    assert.deepEqual(await read.mediaHeld(ada.agentId, [b1.mediaId, a1.mediaId, a2.mediaId]), [a1.mediaId]);
    const items = await read.renderMedia(ada.agentId, [a1.mediaId, b1.mediaId]);
    assert.deepEqual(
      items.map((m) => [m.mediaId, m.sha256, m.contentType, m.width, m.height]),
      [[a1.mediaId, a1.sha256, 'image/png', 40, 30]],
    );
    assert.deepEqual(await read.mediaHeld(ada.agentId, []), []);
  });
});

describe('svc.builder.save_draft and media references', () => {
  const draftWith = (mediaId: string) => ({
    schemaVersion: 1,
    pages: [{ path: '/', title: 'Home', blocks: [{ type: 'image', mediaId, alt: 'a picture' }] }],
  });

  test('given a draft naming the owner’s item, then it saves; naming someone else’s or a deleted one, then builder.unknown_reference', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const bob = await t.signUp('bob');
    const mine = (await upload(t, ada, await images.png())).media.mediaId;
    const gone = (await upload(t, ada, await images.webp())).media.mediaId;
    await t.when('svc.builder.delete_media', { mediaId: gone }, ada.principal);
    const theirs = (await upload(t, bob, await images.png())).media.mediaId;
    await t.when('svc.builder.list_sites', {}, ada.principal); // creates the default site
    const saved = await t.when<{ revision: number }>(
      'svc.builder.save_draft',
      { revision: 1, document: draftWith(mine) },
      ada.principal,
    );
    assert.equal(saved.result.revision, 2);
    for (const id of [theirs, gone]) {
      const r = await t.when(
        'svc.builder.save_draft',
        { revision: 2, document: draftWith(id) },
        ada.principal,
      );
      r.thenError('builder.unknown_reference');
      assert.deepEqual((r.error as { details: unknown }).details, { kind: 'media', ids: [id] });
    }
  });
});
