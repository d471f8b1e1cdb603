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
    expect(gone.pages.map((p) => p.path)).toEqual(['/', '/about']);
    expect(gone.navigation.items).toEqual([{ label: 'About us', url: '/about' }]);
  });

  it('given a form naming a block or page the draft no longer has, or the home page to delete, then the edit is refused', () => {
    for (const body of [
      { edit: 'block.delete', page: '0', block: '9' },
      { edit: 'page.update', page: '7', title: 'x' },
      { edit: 'page.delete', page: '0' },
      { edit: 'block.add', page: '0', type: 'columns' },
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
