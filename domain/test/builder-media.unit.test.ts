import {
  decideDeleteMedia,
  decideUploadMedia,
  fold,
  mediaIdFor,
  mediaPath,
  mediaStream,
  sanitizeMediaAlt,
  sanitizeMediaFilename,
  uuidSchema,
  type MediaState,
  type StoredEventLike,
} from '@tributary/domain';
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { codeOf } from './support.js';

const SHA = 'a'.repeat(64);
const upload = {
  mediaId: '0b1c2d3e-4f50-8617-a8b9-cadbecfd0e1f',
  ownerAgentId: 'owner-1',
  sha256: SHA,
  contentType: 'image/png' as const,
  width: 4,
  height: 3,
  length: 120,
  filename: 'x.png',
};
const stored = (events: { type: string; data: unknown }[]): StoredEventLike[] =>
  events.map((e, i) => ({ ...e, streamVersion: i + 1 }));
const live = (): MediaState =>
  fold(mediaStream(upload.mediaId), stored([{ type: 'media.uploaded', data: upload }]));

describe('media ids', () => {
  test('given a SHA-256 digest, then the id is a version 8 UUID, the same for the same digest', () => {
    const id = mediaIdFor('0123456789abcdef'.repeat(4));
    assert.ok(uuidSchema.safeParse(id).success);
    assert.equal(id[14], '8');
    assert.ok(['8', '9', 'a', 'b'].includes(id[19]!));
    assert.equal(mediaIdFor('0123456789abcdef'.repeat(4)), id);
    assert.notEqual(mediaIdFor('1123456789abcdef'.repeat(4)), id);
  });

  test('given something that is not a hex digest, then it throws', () => {
    assert.throws(() => mediaIdFor('not a digest'));
  });

  test('given a hash and a type, then the served path is /_media/<sha256>.<ext>', () => {
    assert.equal(mediaPath(SHA, 'image/jpeg'), `/_media/${SHA}.jpg`);
    assert.equal(mediaPath(SHA, 'image/webp'), `/_media/${SHA}.webp`);
  });
});

describe('uploading media', () => {
  test('given no item, when uploading, then media.uploaded records it on its stream', () => {
    const events = decideUploadMedia({ ...upload, alt: 'a cat' }, fold(mediaStream(upload.mediaId), []));
    assert.deepEqual(events, [
      { stream: mediaStream(upload.mediaId), type: 'media.uploaded', data: { ...upload, alt: 'a cat' } },
    ]);
  });

  test('given no alt text, then the event carries none', () => {
    const [e] = decideUploadMedia({ ...upload, alt: undefined }, fold(mediaStream(upload.mediaId), []));
    assert.equal('alt' in (e!.data as object), false);
  });

  test('given the owner already holds these bytes, when uploading them again, then nothing is written', () => {
    assert.deepEqual(decideUploadMedia(upload, live()), []);
  });

  test('given a deleted item, when the same bytes are uploaded again, then the item lives again', () => {
    const state = fold<MediaState>(
      mediaStream(upload.mediaId),
      stored([
        { type: 'media.uploaded', data: upload },
        { type: 'media.deleted', data: { mediaId: upload.mediaId, ownerAgentId: 'owner-1' } },
      ]),
    );
    assert.equal(state.live, false);
    assert.deepEqual(
      decideUploadMedia(upload, state).map((e) => e.type),
      ['media.uploaded'],
    );
  });
});

describe('deleting media', () => {
  test('given the owner’s item used by no published version, when deleting, then media.deleted', () => {
    const events = decideDeleteMedia(
      { mediaId: upload.mediaId, ownerAgentId: 'owner-1', publishedIn: [] },
      live(),
    );
    assert.deepEqual(events, [
      {
        stream: mediaStream(upload.mediaId),
        type: 'media.deleted',
        data: { mediaId: upload.mediaId, ownerAgentId: 'owner-1' },
      },
    ]);
  });

  test('given a published version uses it, when deleting, then builder.media_in_use', () => {
    assert.equal(
      codeOf(() =>
        decideDeleteMedia({ mediaId: upload.mediaId, ownerAgentId: 'owner-1', publishedIn: ['s1'] }, live()),
      ),
      'builder.media_in_use',
    );
  });

  test('given someone else’s item, a deleted item or none, when deleting, then builder.media_not_found', () => {
    const cmd = { mediaId: upload.mediaId, publishedIn: [] };
    assert.equal(
      codeOf(() => decideDeleteMedia({ ...cmd, ownerAgentId: 'other' }, live())),
      'builder.media_not_found',
    );
    assert.equal(
      codeOf(() => decideDeleteMedia({ ...cmd, ownerAgentId: 'owner-1' }, { live: false })),
      'builder.media_not_found',
    );
  });
});

describe('recorded filenames and alt text', () => {
  test('given path parts, then only the last segment is kept', () => {
    assert.equal(sanitizeMediaFilename('../../x.png'), 'x.png');
    assert.equal(sanitizeMediaFilename('..\\..\\windows\\x.png'), 'x.png');
    assert.equal(sanitizeMediaFilename('/etc/passwd'), 'passwd');
  });

  test('given control and bidi-override characters, then they are dropped', () => {
    assert.equal(sanitizeMediaFilename('a\u0000b\nc\u202egnp.exe'), 'abcgnp.exe');
  });

  test('given nothing usable, then the name is "image"', () => {
    for (const raw of [undefined, '', '   ', '.', '..', '../', 'a/..', '\u0001'])
      assert.equal(sanitizeMediaFilename(raw), 'image', String(raw));
  });

  test('given a name over 200 characters, then it is cut to 200 with its extension kept', () => {
    const name = sanitizeMediaFilename(`${'n'.repeat(300)}.jpeg`);
    assert.equal(name.length, 200);
    assert.ok(name.endsWith('n.jpeg'));
  });

  test('given a long name of astral characters, then a surrogate pair is never split', () => {
    const name = sanitizeMediaFilename('😀'.repeat(150));
    assert.ok(name.length <= 200);
    assert.equal(
      [...name].every((c) => c === '😀'),
      true,
    );
  });

  test('given alt text, then it is trimmed, control characters become spaces, and empty is none', () => {
    assert.equal(sanitizeMediaAlt('  a\ncat  '), 'a cat');
    assert.equal(sanitizeMediaAlt('   '), undefined);
    assert.equal(sanitizeMediaAlt(undefined), undefined);
    assert.equal(sanitizeMediaAlt('x'.repeat(400))!.length, 300);
  });
});
