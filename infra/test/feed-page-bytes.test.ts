// The feed route writes the page's bytes directly; they must be exactly the JSON text's UTF-8 bytes.
import { feedPageBytes, feedPageJson, type FeedPage } from '@tributary/services';
import assert from 'node:assert/strict';
import { test } from 'node:test';

test('given pages with ASCII, multi-byte and astral text, when written as bytes, then they equal the JSON text in UTF-8', () => {
  const pages: FeedPage[] = [
    { items: [], head: 0, hasMore: false },
    { items: [{ sequence: 1, text: '{"a":1}' }], head: 1, hasMore: false },
    {
      items: [
        { sequence: 41, text: '{"name":"Zoë ✓ 😀","quote":"\\"x\\"","sep":"\u2028"}' },
        { sequence: 42, text: '{"ascii":"plain"}' },
        { sequence: 9007199254740991, text: '{"漢字":"ünï"}' },
      ],
      head: 9007199254740991,
      hasMore: true,
    },
  ];
  for (const page of pages) {
    const bytes = feedPageBytes(page);
    assert.ok(bytes.equals(Buffer.from(feedPageJson(page), 'utf8')));
    assert.deepEqual(JSON.parse(bytes.toString('utf8')), JSON.parse(feedPageJson(page)));
  }
});
