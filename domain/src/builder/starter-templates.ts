// Starter templates: what a new site's first draft holds, chosen when the site is created. Each is a plain
// draft document (pages, headings, text, a button, links) written in words the owner replaces. None has a
// form block: a form is an entity of its own (create_form), which creating a site does not make. The
// title goes into headings and page titles (plain text) only, never into Markdown, where it could mean markup.
import { DRAFT_SCHEMA_VERSION, starterDraft, type DraftDocument, type LeafBlock } from './draft-document.js';

export const STARTER_TEMPLATES = ['person', 'shop', 'portfolio', 'event'] as const;
export type StarterTemplate = (typeof STARTER_TEMPLATES)[number];

/** Each template's name and one line saying what it gives, for the create form and the operation. */
export const STARTER_TEMPLATE_WORDS: Readonly<Record<StarterTemplate, { label: string; hint: string }>> = {
  person: { label: 'A person', hint: 'A home page about you and a contact page.' },
  shop: { label: 'A small shop', hint: 'What you sell, opening hours and how to find you.' },
  portfolio: { label: 'A portfolio', hint: 'Your work on show, a page about you and a way to reach you.' },
  event: { label: 'An event', hint: 'When and where, the programme and how to take part.' },
};

const page = (path: string, title: string, blocks: DraftDocument['pages'][number]['blocks']) => ({
  path,
  title,
  blocks,
});
const doc = (
  pages: DraftDocument['pages'],
  navigation: { label: string; url: string }[],
  footer: string,
): DraftDocument => ({
  schemaVersion: DRAFT_SCHEMA_VERSION,
  pages,
  navigation: { items: navigation },
  footer: { markdown: footer, links: [] },
});

const person = (title: string): DraftDocument =>
  doc(
    [
      page('/', title, [
        { type: 'heading', level: 1, text: title },
        {
          type: 'text',
          markdown:
            'Hello! Say in a sentence or two who you are and what you care about. Replace this text with your own.',
        },
        { type: 'heading', level: 2, text: 'What I do' },
        {
          type: 'text',
          markdown: '- Something you do\n- Something you are proud of\n- Something you would like to do next',
        },
        { type: 'button', label: 'Get in touch', url: '/contact', style: 'primary' },
      ]),
      page('/contact', 'Contact', [
        { type: 'heading', level: 1, text: 'Get in touch' },
        { type: 'text', markdown: 'Say how people can reach you: by mail, by phone or elsewhere online.' },
        {
          type: 'links',
          items: [
            { label: 'Write to me', url: 'mailto:you@example.org' },
            { label: 'Elsewhere online', url: 'https://example.org/replace-with-your-page' },
          ],
        },
      ]),
    ],
    [
      { label: 'Home', url: '/' },
      { label: 'Contact', url: '/contact' },
    ],
    'Made with care. Replace this line with your own.',
  );

const shop = (title: string): DraftDocument =>
  doc(
    [
      page('/', title, [
        { type: 'heading', level: 1, text: title },
        { type: 'text', markdown: 'Say in one sentence what your shop sells and why people love it.' },
        { type: 'heading', level: 2, text: 'What we sell' },
        {
          type: 'columns',
          columns: [
            {
              blocks: [
                { type: 'heading', level: 3, text: 'Our favourite' },
                { type: 'text', markdown: 'A few words about it, and its price.' },
              ],
            },
            {
              blocks: [
                { type: 'heading', level: 3, text: 'Something new' },
                { type: 'text', markdown: 'A few words about it, and its price.' },
              ],
            },
          ],
        },
        { type: 'heading', level: 2, text: 'Opening hours' },
        {
          type: 'text',
          markdown: '- Monday to Friday: 9:00 to 18:00\n- Saturday: 9:00 to 13:00\n- Sunday: closed',
        },
        { type: 'button', label: 'How to find us', url: '/visit', style: 'primary' },
      ]),
      page('/visit', 'Visit us', [
        { type: 'heading', level: 1, text: 'Visit us' },
        { type: 'text', markdown: 'Your street and number\nYour postcode and town' },
        {
          type: 'links',
          items: [
            { label: 'See us on a map', url: 'https://www.openstreetmap.org/' },
            { label: 'Write to us', url: 'mailto:shop@example.org' },
          ],
        },
      ]),
    ],
    [
      { label: 'Home', url: '/' },
      { label: 'Visit us', url: '/visit' },
    ],
    'Open Monday to Saturday.',
  );

const portfolio = (title: string): DraftDocument =>
  doc(
    [
      page('/', title, [
        { type: 'heading', level: 1, text: title },
        { type: 'text', markdown: 'Say in one line what you make. Add pictures of your work below.' },
        { type: 'heading', level: 2, text: 'Selected work' },
        {
          type: 'text',
          markdown:
            '**A project** — what it was and your part in it.\n\n**Another project** — what it was and your part in it.',
        },
        { type: 'button', label: 'About me', url: '/about', style: 'secondary' },
      ]),
      page('/about', 'About', [
        { type: 'heading', level: 1, text: 'About me' },
        {
          type: 'text',
          markdown: 'Where you trained, who you have worked with, and what you want to work on.',
        },
        { type: 'divider' },
        { type: 'heading', level: 2, text: 'Work with me' },
        { type: 'button', label: 'Write to me', url: 'mailto:you@example.org', style: 'primary' },
      ]),
    ],
    [
      { label: 'Work', url: '/' },
      { label: 'About', url: '/about' },
    ],
    'Made with care. Replace this line with your own.',
  );

const event = (title: string): DraftDocument =>
  doc(
    [
      page('/', title, [
        { type: 'heading', level: 1, text: title },
        { type: 'text', markdown: '**When:** the date and time\n\n**Where:** the place and town' },
        { type: 'text', markdown: 'Say in a few lines what the event is and who it is for.' },
        { type: 'button', label: 'See the programme', url: '/programme', style: 'primary' },
      ]),
      page('/programme', 'Programme', [
        { type: 'heading', level: 1, text: 'Programme' },
        {
          type: 'text',
          markdown:
            '- 10:00 — Doors open\n- 10:30 — The first session\n- 12:30 — Lunch\n- 14:00 — The afternoon',
        },
        { type: 'heading', level: 2, text: 'Take part' },
        { type: 'text', markdown: 'Say how to sign up, what it costs and whom to ask.' },
        { type: 'links', items: [{ label: 'Write to the organisers', url: 'mailto:hello@example.org' }] },
      ]),
    ],
    [
      { label: 'Home', url: '/' },
      { label: 'Programme', url: '/programme' },
    ],
    'See you there.',
  );

/** The first draft of a new site from a template; without one, the one-page starter. */
export function starterTemplateDraft(template: StarterTemplate | undefined, title: string): DraftDocument {
  switch (template) {
    case undefined:
      return starterDraft(title);
    case 'person':
      return person(title);
    case 'shop':
      return shop(title);
    case 'portfolio':
      return portfolio(title);
    case 'event':
      return event(title);
  }
}

/** Template words that may well stay as they are (not flagged as left to replace). */
const WORDS_TO_KEEP = new Set(['See you there.']);

/**
 * The texts the templates write for the owner to replace: every text block and footer line of every
 * template (instructions, or example facts such as opening hours and an address) but WORDS_TO_KEEP.
 * Titles are only ever in headings, so the texts are the same whatever the site is called.
 */
const TEMPLATE_TEXTS: ReadonlySet<string> = new Set(
  STARTER_TEMPLATES.flatMap((t) => {
    const d = starterTemplateDraft(t, '');
    const texts: string[] = [d.footer.markdown];
    const visit = (b: DraftDocument['pages'][number]['blocks'][number] | LeafBlock) => {
      if (b.type === 'text') texts.push(b.markdown);
      else if (b.type === 'columns') b.columns.forEach((c) => c.blocks.forEach(visit));
    };
    d.pages.forEach((p) => p.blocks.forEach(visit));
    return texts.map((x) => x.trim()).filter((x) => x !== '' && !WORDS_TO_KEEP.has(x));
  }),
);

/** A link to the templates' placeholder domain: `https://example.org/…`, `mailto:you@example.org`. */
const PLACEHOLDER_LINK = /(?:^|[@/.])example\.org(?:$|[/?#:])/i;

/** Something a starter template put in the draft for the owner to replace, still there. */
export interface TemplatePlaceholder {
  kind: 'text' | 'link';
  /** Where it is: a page (its path and title), the navigation or the footer. */
  place: { page: string; title: string } | 'navigation' | 'footer';
  /** The text as the template wrote it, or the link's label. */
  text: string;
  /** For a link: where it goes. */
  url?: string;
}

/**
 * What of a starter template is still in a draft for its owner to replace: its texts word for word (a
 * text block or the footer line) and links to example.org (docs/builder.md#starter-templates). The
 * editor lists them until they are gone; nothing refuses them.
 */
export function templatePlaceholders(doc: DraftDocument): TemplatePlaceholder[] {
  const found: TemplatePlaceholder[] = [];
  const text = (markdown: string, place: TemplatePlaceholder['place']) => {
    const t = markdown.replace(/\r\n/g, '\n').trim();
    if (TEMPLATE_TEXTS.has(t)) found.push({ kind: 'text', place, text: t });
  };
  const link = (label: string, url: string, place: TemplatePlaceholder['place']) => {
    if (PLACEHOLDER_LINK.test(url)) found.push({ kind: 'link', place, text: label, url });
  };
  for (const page of doc.pages) {
    const place = { page: page.path, title: page.title };
    const visit = (b: DraftDocument['pages'][number]['blocks'][number] | LeafBlock) => {
      if (b.type === 'text') text(b.markdown, place);
      else if (b.type === 'links') b.items.forEach((i) => link(i.label, i.url, place));
      else if (b.type === 'button') link(b.label, b.url, place);
      else if (b.type === 'image' && b.link) link(b.alt, b.link, place);
      else if (b.type === 'columns') b.columns.forEach((c) => c.blocks.forEach(visit));
    };
    page.blocks.forEach(visit);
  }
  doc.navigation.items.forEach((i) => link(i.label, i.url, 'navigation'));
  text(doc.footer.markdown, 'footer');
  doc.footer.links.forEach((i) => link(i.label, i.url, 'footer'));
  return found;
}
