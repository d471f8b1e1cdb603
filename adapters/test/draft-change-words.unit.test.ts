// What the editor says an undo or a redo changed (adapters/src/web/builder/draft-change-words.ts): the
// difference between two drafts as a person's words, naming the block as the page now shows it.
import type { DraftBlock, DraftDocument } from '@tributary/domain';
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { draftChangeWords } from '../src/web/builder/draft-change-words.js';

const heading = (text: string): DraftBlock => ({ type: 'heading', level: 2, text });
const text = (markdown: string): DraftBlock => ({ type: 'text', markdown });

function draft(
  pages: { path: string; title: string; blocks: DraftBlock[]; description?: string }[],
  extra: Partial<DraftDocument> = {},
): DraftDocument {
  return {
    schemaVersion: 1,
    pages,
    navigation: { items: [] },
    footer: { markdown: '', links: [] },
    ...extra,
  };
}
const home = (...blocks: DraftBlock[]) => draft([{ path: '/', title: 'Home', blocks }]);

describe('what changed between two drafts, in words', () => {
  test('given a block added, deleted or edited on a one-page site, then the block is named by its kind and words', () => {
    const before = home(heading('Welcome'), text('We bake **bread**.'));
    assert.equal(
      draftChangeWords(
        before,
        home(heading('Welcome'), text('We bake **bread**.'), heading('Opening hours')),
        'newer',
      ),
      'added the heading ‘Opening hours’',
    );
    assert.equal(
      draftChangeWords(before, home(heading('Welcome')), 'newer'),
      'deleted the text ‘We bake bread.’',
    );
    // Words changed: from what to what, whichever way the step went.
    const edited = home(heading('Welcome!'), text('We bake **bread**.'));
    assert.equal(draftChangeWords(before, edited, 'older'), 'changed the heading ‘Welcome’ to ‘Welcome!’');
    assert.equal(draftChangeWords(before, edited, 'newer'), 'changed the heading ‘Welcome’ to ‘Welcome!’');
    // Something else changed: the block named as the page shows it (after an undo the older state).
    const linked: DraftBlock = { type: 'button', label: 'Order', url: '/order', style: 'primary' };
    const relinked: DraftBlock = { ...linked, url: '/shop' };
    assert.equal(draftChangeWords(home(linked), home(relinked), 'older'), 'edited the button ‘Order’');
    const levelled = home({ type: 'heading', level: 1, text: 'Welcome' }, text('We bake **bread**.'));
    assert.equal(draftChangeWords(before, levelled, 'newer'), 'edited the heading ‘Welcome’');
  });

  test('given a block moved, then it says which one and which way', () => {
    const before = home(heading('A'), text('B'), heading('C'));
    assert.equal(
      draftChangeWords(before, home(text('B'), heading('C'), heading('A')), 'newer'),
      'moved the heading ‘A’ down',
    );
    assert.equal(
      draftChangeWords(before, home(heading('C'), heading('A'), text('B')), 'newer'),
      'moved the heading ‘C’ up',
    );
  });

  test('given a site of several pages, then the page is named; pages added, deleted, renamed and moved are said', () => {
    const two = draft([
      { path: '/', title: 'Home', blocks: [heading('Hi')] },
      { path: '/about', title: 'About', blocks: [] },
    ]);
    const three = draft([...two.pages, { path: '/menu', title: 'Menu', blocks: [] }]);
    assert.equal(draftChangeWords(two, three, 'newer'), 'added the page ‘Menu’');
    assert.equal(draftChangeWords(three, two, 'older'), 'deleted the page ‘Menu’');
    const renamed = draft([two.pages[0]!, { ...two.pages[1]!, title: 'About us' }]);
    assert.equal(draftChangeWords(two, renamed, 'newer'), 'renamed the page ‘About’ to ‘About us’');
    const moved = draft([two.pages[1]!, two.pages[0]!]);
    assert.equal(draftChangeWords(two, moved, 'newer'), 'moved the page ‘Home’ down');
    const added = draft([{ ...two.pages[0]!, blocks: [heading('Hi'), text('Hello')] }, two.pages[1]!]);
    assert.equal(draftChangeWords(two, added, 'newer'), 'added the text ‘Hello’ on the page ‘Home’');
  });

  test('given the navigation, the footer or several changes at once, then each is said, several as the first and a count', () => {
    const before = home(heading('Hi'));
    assert.equal(
      draftChangeWords(
        before,
        draft(before.pages, { navigation: { items: [{ label: 'Home', url: '/' }] } }),
        'newer',
      ),
      'edited the navigation links',
    );
    assert.equal(
      draftChangeWords(before, draft(before.pages, { footer: { markdown: '© Us', links: [] } }), 'newer'),
      'edited the footer',
    );
    assert.equal(
      draftChangeWords(
        before,
        draft(home(heading('Ho')).pages, { footer: { markdown: '© Us', links: [] } }),
        'newer',
      ),
      'changed the heading ‘Hi’ to ‘Ho’, and one other change',
    );
    assert.equal(draftChangeWords(before, home(heading('Hi')), 'newer'), null);
  });

  test('given long or empty words, then the quote is cut and a block without words is named by its kind', () => {
    const long = 'A very long heading that goes on and on about the bakery and its bread';
    assert.equal(
      draftChangeWords(home(), home(heading(long)), 'newer'),
      'added the heading ‘A very long heading that goes on and on…’',
    );
    assert.equal(draftChangeWords(home(), home({ type: 'divider' }), 'newer'), 'added a divider');
    assert.equal(draftChangeWords(home(), home(text('')), 'newer'), 'added an empty text block');
  });
});
