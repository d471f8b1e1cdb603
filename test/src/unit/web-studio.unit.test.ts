// The builder's and the assistant's pages, their pure parts: one editor form post as one edit of a
// draft, the form editor's rows as form fields, and a plan step's arguments written out with the values
// from outside content marked — every piece of text escaped.
import { applyDraftEdit, argsWithMarks, fieldsFromRows, linkLines } from '@tributary/adapters';
import { draftDocumentSchema, isDomainError, type DraftDocument } from '@tributary/domain';
import { describe, expect, it } from 'vitest';

const draft = (): DraftDocument =>
  draftDocumentSchema.parse({
    schemaVersion: 1,
    pages: [
      {
        path: '/',
        title: 'Home',
        blocks: [
          { type: 'heading', id: 'top', level: 1, text: 'Soups' },
          { type: 'text', markdown: 'Hot' },
          { type: 'divider' },
        ],
      },
      { path: '/menu', title: 'Menu', blocks: [] },
      {
        path: '/cols',
        title: 'Columns',
        blocks: [
          {
            type: 'columns',
            id: 'c',
            columns: [
              { blocks: [{ type: 'heading', level: 2, text: 'A' }, { type: 'divider' }] },
              { blocks: [] },
              { blocks: [{ type: 'text', markdown: 'C' }] },
            ],
          },
        ],
      },
    ],
    navigation: { items: [{ label: 'Menu', url: '/menu' }] },
  });

describe('draft edits from the editor’s forms', () => {
  it('given a page’s blocks, when one is moved up, changed and deleted, then only that block changes and ids are kept', () => {
    const moved = applyDraftEdit(draft(), { edit: 'block.move', page: '0', block: '1', direction: 'up' });
    expect(moved.pages[0]!.blocks.map((b) => b.type)).toEqual(['text', 'heading', 'divider']);
    const changed = applyDraftEdit(moved, {
      edit: 'block.update',
      page: '0',
      block: '1',
      level: '2',
      text: 'Broths',
    });
    expect(changed.pages[0]!.blocks[1]).toEqual({ type: 'heading', id: 'top', level: 2, text: 'Broths' });
    const deleted = applyDraftEdit(changed, { edit: 'block.delete', page: '0', block: '2' });
    expect(deleted.pages[0]!.blocks.map((b) => b.type)).toEqual(['text', 'heading']);
    expect(draft().pages[0]!.blocks).toHaveLength(3);
  });

  it('given a draft, when a page is added with the navigation box ticked and another deleted, then the navigation follows', () => {
    const added = applyDraftEdit(draft(), { edit: 'page.add', path: 'about', title: 'About us', nav: 'on' });
    expect(added.pages.at(-1)).toEqual({ path: '/about', title: 'About us', blocks: [] });
    expect(added.navigation.items).toContainEqual({ label: 'About us', url: '/about' });
    const gone = applyDraftEdit(added, { edit: 'page.delete', page: '1' });
    expect(gone.pages.map((p) => p.path)).toEqual(['/', '/cols', '/about']);
    expect(gone.navigation.items).toEqual([{ label: 'About us', url: '/about' }]);
  });

  it('given a form naming a block or page the draft no longer has, or the home page to delete, then the edit is refused', () => {
    for (const body of [
      { edit: 'block.delete', page: '0', block: '9' },
      { edit: 'page.update', page: '7', title: 'x' },
      { edit: 'page.delete', page: '0' },
      // Columns do not nest; a column of a block that has none; a column past the last.
      { edit: 'block.add', page: '2', block: '0', column: '0', type: 'columns' },
      { edit: 'block.add', page: '0', block: '0', column: '0', type: 'divider' },
      { edit: 'block.delete', page: '2', block: '0', column: '5', inner: '0' },
      { edit: 'block.update', page: '2', block: '0', column: '0', inner: '3', text: 'x' },
      { edit: 'nonsense' },
    ]) {
      let error: unknown;
      try {
        applyDraftEdit(draft(), body);
      } catch (e) {
        error = e;
      }
      expect(isDomainError(error) && error.code).toBe('input.invalid');
    }
  });

  it('given a columns block, when its blocks are added, changed, moved within and across columns and deleted, then only those change', () => {
    const cols = (d: DraftDocument) =>
      (d.pages[2]!.blocks[0] as { columns: { blocks: unknown[] }[] }).columns;
    let d = applyDraftEdit(draft(), {
      edit: 'block.add',
      page: '2',
      block: '0',
      column: '1',
      type: 'button',
      label: 'Go',
      url: '/menu',
    });
    expect(cols(d)[1]!.blocks).toEqual([{ type: 'button', label: 'Go', url: '/menu', style: 'primary' }]);
    d = applyDraftEdit(d, {
      edit: 'block.update',
      page: '2',
      block: '0',
      column: '0',
      inner: '0',
      level: '3',
      text: 'A!',
    });
    expect(cols(d)[0]!.blocks[0]).toEqual({ type: 'heading', level: 3, text: 'A!' });
    d = applyDraftEdit(d, {
      edit: 'block.move',
      page: '2',
      block: '0',
      column: '0',
      inner: '1',
      direction: 'up',
    });
    expect(cols(d)[0]!.blocks.map((b) => (b as { type: string }).type)).toEqual(['divider', 'heading']);
    d = applyDraftEdit(d, {
      edit: 'block.move',
      page: '2',
      block: '0',
      column: '2',
      inner: '0',
      direction: 'left',
    });
    expect(cols(d)[1]!.blocks.map((b) => (b as { type: string }).type)).toEqual(['button', 'text']);
    expect(cols(d)[2]!.blocks).toEqual([]);
    // At the edge, a move changes nothing.
    expect(
      applyDraftEdit(d, {
        edit: 'block.move',
        page: '2',
        block: '0',
        column: '0',
        inner: '0',
        direction: 'left',
      }),
    ).toEqual(d);
    d = applyDraftEdit(d, { edit: 'block.delete', page: '2', block: '0', column: '0', inner: '0' });
    expect(cols(d)[0]!.blocks).toEqual([{ type: 'heading', level: 3, text: 'A!' }]);
    expect(d.pages[2]!.blocks[0]!.id).toBe('c');
  });

  it('given a columns block, when its number of columns changes, then new columns are empty and the blocks of those taken away go to the last kept', () => {
    const cols = (d: DraftDocument) =>
      (d.pages[2]!.blocks[0] as { columns: { blocks: unknown[] }[] }).columns;
    const four = applyDraftEdit(draft(), { edit: 'block.update', page: '2', block: '0', count: '4' });
    expect(cols(four).map((c) => c.blocks.length)).toEqual([2, 0, 1, 0]);
    const two = applyDraftEdit(four, { edit: 'block.update', page: '2', block: '0', count: '2' });
    expect(cols(two).map((c) => c.blocks.length)).toEqual([2, 1]);
    expect(cols(two)[1]!.blocks).toEqual([{ type: 'text', markdown: 'C' }]);
    // A new columns block comes with empty columns.
    const added = applyDraftEdit(draft(), { edit: 'block.add', page: '1', type: 'columns', count: '3' });
    expect(added.pages[1]!.blocks).toEqual([
      { type: 'columns', columns: [{ blocks: [] }, { blocks: [] }, { blocks: [] }] },
    ]);
  });

  it('given pages, when one is moved and its path changed, then the order changes and the navigation follows the path', () => {
    const moved = applyDraftEdit(draft(), { edit: 'page.move', page: '1', direction: 'up' });
    expect(moved.pages.map((p) => p.path)).toEqual(['/menu', '/', '/cols']);
    const renamed = applyDraftEdit(moved, { edit: 'page.update', page: '0', title: 'Food', path: 'food' });
    expect(renamed.pages[0]).toMatchObject({ path: '/food', title: 'Food' });
    expect(renamed.navigation.items).toEqual([{ label: 'Menu', url: '/food' }]);
    // The home page keeps its path.
    const home = applyDraftEdit(draft(), { edit: 'page.update', page: '0', title: 'Home', path: '/x' });
    expect(home.pages[0]!.path).toBe('/');
  });

  it('given link lines, then each is a label and a URL (a bare URL labels itself)', () => {
    expect(linkLines('Menu | /menu\n\n  https://example.org  \nA | b | mailto:x@example.org')).toEqual([
      { label: 'Menu', url: '/menu' },
      { label: 'https://example.org', url: 'https://example.org' },
      { label: 'A | b', url: 'mailto:x@example.org' },
    ]);
  });
});

describe('form fields from the editor’s rows', () => {
  it('given rows, when some labels are empty, then those rows are left out, names are made from labels, options split', () => {
    const fields = fieldsFromRows({
      flabel: ['Your name', '', 'Which soup?'],
      ftype: ['text', 'email', 'select'],
      fname: ['', '', 'soup'],
      foptions: ['', '', 'Leek\nPea, Tomato'],
      frequired: ['2'],
    });
    expect(fields).toEqual([
      { type: 'text', name: 'your_name', label: 'Your name', required: false },
      {
        type: 'select',
        name: 'soup',
        label: 'Which soup?',
        required: true,
        options: ['Leek', 'Pea', 'Tomato'],
      },
    ]);
  });
});

describe('a plan step’s arguments', () => {
  it('given values from outside content, when written out, then exactly those are marked and every text is escaped', () => {
    const out = argsWithMarks(
      { name: '<img src=x onerror=alert(1)>', tags: ['a', 'Eve"s'], targetAgentId: 'x' },
      [
        { path: '/name', source: 'tool_result' },
        { path: '/tags/1', source: 'site_text' },
      ],
    ).text;
    expect(out).not.toContain('<img');
    expect(out).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(out.match(/<mark /g)).toHaveLength(2);
    expect(out).toContain('data-untrusted="/name"');
    expect(out).toContain('data-untrusted="/tags/1"');
    expect(out).toContain('(from a site’s text)');
    expect(out).toMatch(/^<pre[^>]*>\{\n {2}<span class="json-key">&quot;name&quot;<\/span>: <mark/);
  });
});
