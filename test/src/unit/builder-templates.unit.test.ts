// The starter templates a new site can start from: each is a valid draft (the schema, the checks
// save_draft makes) that renders to one page per draft page, and none names a form or a picture.
import {
  DRAFT_SCHEMA_VERSION,
  STARTER_TEMPLATES,
  draftDocumentSchema,
  draftReferences,
  starterDraft,
  starterTemplateDraft,
  templatePlaceholders,
} from '@tributary/domain';
import { renderSite, requireDraftSize, requireSafeContent } from '@tributary/services';
import { describe, expect, it } from 'vitest';

const site = { title: 'Ada’s Bakery', theme: 'classic' as const, description: '', language: 'en' };

describe('starter templates', () => {
  for (const template of STARTER_TEMPLATES)
    it(`given the ${template} template, when a site titled “Ada’s Bakery” starts from it, then the draft passes the draft checks and renders every page with the title`, () => {
      // Given / when
      const draft = starterTemplateDraft(template, 'Ada’s Bakery');
      // Then: the schema gives back the same document (nothing defaulted or dropped) …
      expect(draftDocumentSchema.parse(draft)).toEqual(draft);
      expect(draft.schemaVersion).toBe(DRAFT_SCHEMA_VERSION);
      // … save_draft's checks pass, and it names nothing the new site does not hold.
      expect(() => requireSafeContent(draft)).not.toThrow();
      expect(() => requireDraftSize(draft)).not.toThrow();
      expect(draftReferences(draft)).toEqual({ mediaIds: [], formIds: [] });
      // It holds headings, text and a button or links, on more than one page, each reachable by the menu.
      const types = draft.pages.flatMap((p) => p.blocks.map((b) => b.type));
      expect(types).toEqual(expect.arrayContaining(['heading', 'text']));
      expect(types.some((t) => t === 'button' || t === 'links')).toBe(true);
      expect(draft.pages.length).toBeGreaterThan(1);
      expect(draft.navigation.items.map((i) => i.url).sort()).toEqual(draft.pages.map((p) => p.path).sort());
      // It renders: one HTML file per page, the home page headed by the title.
      const files = renderSite({ document: draft, site, media: new Map(), forms: new Map() });
      const pages = files.filter((f) => f.contentType.startsWith('text/html'));
      expect(pages).toHaveLength(draft.pages.length);
      const home = files.find((f) => f.path === '/index.html')?.bytes?.toString('utf8') ?? '';
      expect(home).toContain('<h1>Ada’s Bakery</h1>');
    });

  it('given no template, when a site starts, then the draft is the one-page starter as before', () => {
    expect(starterTemplateDraft(undefined, 'Soups')).toEqual(starterDraft('Soups'));
  });

  it('given a title that looks like Markdown, when a template is filled in, then it lands in plain-text fields only', () => {
    const title = '[x](https://evil.example) *bold*';
    for (const template of STARTER_TEMPLATES) {
      const draft = starterTemplateDraft(template, title);
      expect(JSON.stringify(draft.footer)).not.toContain('evil');
      for (const b of draft.pages.flatMap((p) => p.blocks))
        if (b.type === 'text') expect(b.markdown).not.toContain('evil');
    }
  });

  it('given the shop template, then its example words are flagged where they are — the footer line, the address, the opening hours — and its example.org link', () => {
    const draft = starterTemplateDraft('shop', 'Ada’s Bakery');
    const found = templatePlaceholders(draft);
    expect(found).toEqual(
      expect.arrayContaining([
        { kind: 'text', place: 'footer', text: 'Open Monday to Saturday.' },
        {
          kind: 'text',
          place: { page: '/visit', title: 'Visit us' },
          text: 'Your street and number\nYour postcode and town',
        },
        {
          kind: 'link',
          place: { page: '/visit', title: 'Visit us' },
          text: 'Write to us',
          url: 'mailto:shop@example.org',
        },
      ]),
    );
    // The two columns' texts are inside a columns block, and flagged too.
    expect(found.filter((p) => p.text === 'A few words about it, and its price.')).toHaveLength(2);
  });

  it('given every template, then each flags its texts and example.org links until they are replaced, and nothing after', () => {
    for (const template of STARTER_TEMPLATES) {
      const draft = starterTemplateDraft(template, 'Ada’s Bakery');
      const found = templatePlaceholders(draft);
      expect(found.some((p) => p.kind === 'text')).toBe(true);
      // Headings, page titles and the title are the owner's already: never flagged.
      expect(found.map((p) => p.text)).not.toContain('Ada’s Bakery');
      const mine = structuredClone(draft);
      const visit = (b: (typeof mine)['pages'][number]['blocks'][number]) => {
        if (b.type === 'text') b.markdown = `${b.markdown}\nOur own words.`;
        if (b.type === 'links')
          b.items = b.items.map((i) => ({ ...i, url: 'mailto:ada@adasbakery.example' }));
        if (b.type === 'button' && b.url.includes('example.org')) b.url = 'https://adasbakery.example/';
        if (b.type === 'columns') b.columns.forEach((c) => c.blocks.forEach(visit));
      };
      mine.pages.forEach((p) => p.blocks.forEach(visit));
      mine.footer.markdown = 'Open Tuesday to Saturday. 12 Mill Street, Riverton.';
      expect(templatePlaceholders(mine)).toEqual([]);
    }
    // A footer that may well stay as it is (the event's “See you there.”) is not flagged.
    expect(templatePlaceholders(starterTemplateDraft('event', 'Fête')).map((p) => p.place)).not.toContain(
      'footer',
    );
    // Nor is a draft that never came from a template.
    expect(templatePlaceholders(starterDraft('Soups'))).toEqual([]);
  });
});
