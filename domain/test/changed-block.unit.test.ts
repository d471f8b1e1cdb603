import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { changedBlock, lastChangedBlocks, type DraftBlock, type DraftDocument } from '../src/index.js';

const text = (markdown: string): DraftBlock => ({ type: 'text', markdown });
const doc = (pages: Record<string, DraftBlock[]>): DraftDocument =>
  ({
    pages: Object.entries(pages).map(([path, blocks]) => ({ path, title: path, blocks })),
    navigation: [],
    footer: { markdown: '' },
  }) as unknown as DraftDocument;

describe('changedBlock: the block a change worked on', () => {
  test('given a block edited, added, deleted or moved down, then the edited, the added, the one before the deleted, the moved', () => {
    const [a, b, c] = [text('A'), text('B'), text('C')];
    assert.equal(changedBlock([a, b, c], [a, text('B!'), c]), 1);
    assert.equal(changedBlock([a, c], [a, b, c]), 1);
    assert.equal(changedBlock([a, b, c], [a, c]), 0);
    assert.equal(changedBlock([a, b, c], [b, c]), 0);
    assert.equal(changedBlock([a, b, c], [b, c, a]), 2);
  });

  test('given the same blocks (keys in another order) or none left, then null', () => {
    assert.equal(changedBlock([{ markdown: 'A', type: 'text' } as DraftBlock], [text('A')]), null);
    assert.equal(changedBlock([text('A')], []), null);
  });
});

describe('lastChangedBlocks: per page, the newest change', () => {
  test('given saves newest first where the newest changed another page, then each page has its own newest change', () => {
    const documents = [
      doc({ '/': [text('A'), text('B2')], '/about': [text('X2')] }),
      doc({ '/': [text('A'), text('B2')], '/about': [text('X')] }),
      doc({ '/': [text('A'), text('B')], '/about': [text('X')] }),
    ];
    assert.deepEqual(lastChangedBlocks(documents), { '/about': 0, '/': 1 });
  });

  test('given a page none of the saves changed, or one that was not there all along, then it is absent', () => {
    const documents = [doc({ '/': [text('A')], '/new': [text('N')] }), doc({ '/': [text('A')] })];
    assert.deepEqual(lastChangedBlocks(documents), {});
    assert.deepEqual(lastChangedBlocks([]), {});
  });
});
