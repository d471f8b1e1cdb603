// Assistant attachments in the domain: the id, the fold, the decider and the owner check.
import {
  attachmentAdded,
  attachmentIdFor,
  attachmentIdSeed,
  attachmentStream,
  decideAddAttachment,
  fold,
  ownedAttachment,
  uuidSchema,
  type AttachmentAddedData,
  type AttachmentState,
  type StoredEventLike,
} from '@tributary/domain';
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { codeOf } from './support.js';

const SHA = 'b'.repeat(64);
const added: AttachmentAddedData = {
  attachmentId: '0b1c2d3e-4f50-8617-a8b9-cadbecfd0e1f',
  ownerAgentId: 'owner-1',
  mediaType: 'image/png',
  width: 4,
  height: 3,
  bytes: 120,
  sha256: SHA,
  blobKey: SHA,
};
const stored = (events: { type: string; data: unknown }[]): StoredEventLike[] =>
  events.map((e, i) => ({ ...e, streamVersion: i + 1 }));
const none = (): AttachmentState => fold(attachmentStream(added.attachmentId), []) as AttachmentState;
const held = (): AttachmentState =>
  fold(
    attachmentStream(added.attachmentId),
    stored([{ type: 'assistant.attachment_added', data: added }]),
  ) as AttachmentState;

describe('attachment ids', () => {
  test('given an owner and a hash, then the seed names both, and the id is a version 8 UUID', () => {
    assert.equal(attachmentIdSeed('owner-1', SHA), `aattach\nowner-1\n${SHA}`);
    const id = attachmentIdFor('0123456789abcdef'.repeat(4));
    assert.ok(uuidSchema.safeParse(id).success);
    assert.equal(id[14], '8');
    assert.equal(attachmentIdFor('0123456789abcdef'.repeat(4)), id);
  });

  test('given the stream name, then it is aattach-<id>', () => {
    assert.equal(attachmentStream('x'), 'aattach-x');
  });
});

describe('adding an attachment', () => {
  test('given no attachment, when added, then assistant.attachment_added records it on its stream', () => {
    assert.deepEqual(decideAddAttachment(added, none()), [
      { stream: attachmentStream(added.attachmentId), type: 'assistant.attachment_added', data: added },
    ]);
  });

  test('given the attachment recorded, when the same is added again, then nothing is decided', () => {
    assert.deepEqual(decideAddAttachment(added, held()), []);
  });

  test('given event data, then the schema refuses a type other than PNG, JPEG, WebP or GIF, and a bad hash', () => {
    assert.ok(attachmentAdded.data.safeParse(added).success);
    for (const mediaType of ['image/avif', 'image/svg+xml', 'text/plain'])
      assert.equal(attachmentAdded.data.safeParse({ ...added, mediaType }).success, false, mediaType);
    assert.equal(attachmentAdded.data.safeParse({ ...added, sha256: 'X'.repeat(64) }).success, false);
    assert.equal(attachmentAdded.data.safeParse({ ...added, extra: 1 }).success, false);
  });
});

describe('owning an attachment', () => {
  test("given the owner's attachment, then it is answered", () => {
    assert.deepEqual(ownedAttachment(held(), 'owner-1'), added);
  });

  test("given someone else's or no attachment, then assistant.attachment_not_found", () => {
    assert.equal(
      codeOf(() => ownedAttachment(held(), 'owner-2')),
      'assistant.attachment_not_found',
    );
    assert.equal(
      codeOf(() => ownedAttachment(none(), 'owner-1')),
      'assistant.attachment_not_found',
    );
  });
});
