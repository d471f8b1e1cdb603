// uuidV8FromDigest: the one name-based UUID derivation (media, attachment, default-site and version ids).
import { uuidSchema, uuidV8FromDigest } from '@tributary/domain';
import assert from 'node:assert/strict';
import { test } from 'vitest';

test('given the SHA-256 of RFC 9562 appendix B.2 (DNS namespace, "www.example.com"), when derived, then its UUIDv8', () => {
  const digest = '5c146b143c524afd938a375d0df1fbf6fe12a66b645f72f6158759387e51f3c8';
  assert.equal(uuidV8FromDigest(digest), '5c146b14-3c52-8afd-938a-375d0df1fbf6');
});

test('given digests whose 17th hex digit runs 0 to f, when derived, then the version is 8, the variant 10xx, the rest the digest', () => {
  for (const nibble of '0123456789abcdef') {
    const digest = `0123456789abcdef${nibble}123456789abcdef`.padEnd(64, '0');
    const id = uuidV8FromDigest(digest);
    assert.ok(uuidSchema.safeParse(id).success, id);
    assert.equal(id[14], '8');
    assert.equal(parseInt(id[19]!, 16), (parseInt(nibble, 16) & 0x3) | 0x8);
    assert.equal(id.replaceAll('-', '').slice(0, 12), digest.slice(0, 12));
    assert.equal(id.replaceAll('-', '').slice(13, 16), digest.slice(13, 16));
    assert.equal(id.replaceAll('-', '').slice(17), digest.slice(17, 32));
  }
});

test('given the same digest twice, then the same id; given another, then another', () => {
  const digest = 'ab'.repeat(32);
  assert.equal(uuidV8FromDigest(digest), uuidV8FromDigest(digest));
  assert.notEqual(uuidV8FromDigest('ac'.repeat(32)), uuidV8FromDigest(digest));
});

test('given what is not a lower-case hex SHA-256 digest, when derived, then it throws', () => {
  for (const bad of ['', 'ab'.repeat(31), 'ab'.repeat(33), 'AB'.repeat(32), `${'ab'.repeat(31)}zz`])
    assert.throws(() => uuidV8FromDigest(bad), /hex SHA-256 digest/);
});
