// The renderer: a draft to the files of a version. What a browser would build from the HTML (parsed with
// parse5, the WHATWG parser) holds only the elements and attributes our templates write, whatever the
// draft's fields hold; links between files are relative; the same inputs give the same bytes.
import { draftDocumentSchema, isDomainError, type DraftDocument } from '@tributary/domain';
import {
  renderMarkdown,
  renderSite,
  unsafeMarkdownLinks,
  type RenderForm,
  type RenderMedia,
  type RenderedFile,
} from '@tributary/services';
import { parse, type DefaultTreeAdapterTypes } from 'parse5';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';

type Element = DefaultTreeAdapterTypes.Element;
type Node = DefaultTreeAdapterTypes.Node;

const IMG = '11111111-1111-4111-8111-111111111111';
const IMG2 = '33333333-3333-4333-8333-333333333333';
const FORM = '22222222-2222-4222-8222-222222222222';

/** What an attacker would try in a field: markup, attribute breakouts, handlers, script URLs. */
const EVIL = [
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(2)>',
  "' onmouseover='alert(3)' x='",
  '<svg onload=alert(4)>',
  '</textarea><script>alert(5)</script>',
  '<style>body{display:none}</style>',
  '<a href="javascript:alert(6)">x</a>',
  '<iframe src="javascript:alert(7)"></iframe>',
].join(' ');
const EVIL_MARKDOWN = [
  EVIL,
  '[a](javascript:alert(8)) [b](JAVASCRIPT:alert(9)) [c](data:text/html,<script>alert(10)</script>)',
  '[d](vbscript:msgbox(11)) [e](&#106;avascript:alert(12)) [f](java&#x09;script:alert(13))',
  '[g](//evil.example/x) [h](/ok" onclick="alert(14)) [i]( javascript:alert(15) )',
  '<javascript:alert(16)> <https://ok.example/"onmouseover="alert(17)>',
  '![img](javascript:alert(18)) ![img2](https://evil.example/track.png)',
  '[ref]: javascript:alert(19)',
  '',
  '[ref] and [ref][] and [x][ref]',
  '',
  '<div onclick="alert(20)">html block</div>',
  '',
  '```html" onload="alert(21)',
  '<script>alert(22)</script>',
  '```',
].join('\n');

const media: ReadonlyMap<string, RenderMedia> = new Map([
  [IMG, { sha256: 'a'.repeat(64), contentType: 'image/png', length: 1234, width: 800, height: 600 }],
  [IMG2, { sha256: 'b'.repeat(64), contentType: 'image/jpeg', length: 99 }],
]);
const forms = (over: Partial<RenderForm> = {}): ReadonlyMap<string, RenderForm> =>
  new Map([
    [
      FORM,
      {
        formId: FORM,
        title: 'Write to us',
        fields: [
          { name: 'email', label: 'Email', type: 'email', required: true },
          { name: 'message', label: 'Message', type: 'textarea', maxLength: 2000 },
          { name: 'topic', label: 'Topic', type: 'select', options: ['Hello', 'Other'] },
          { name: 'agree', label: 'I agree', type: 'checkbox' },
        ],
        ...over,
      },
    ],
  ]);

/** A draft using every block type, every text field holding `text` and every Markdown field `md`. */
function everyBlockDraft(text: string, md: string): DraftDocument {
  return draftDocumentSchema.parse({
    schemaVersion: 1,
    pages: [
      {
        path: '/',
        title: `Home ${text}`,
        description: `About ${text}`,
        blocks: [
          { type: 'heading', level: 1, text },
          { type: 'text', markdown: md },
          { type: 'image', mediaId: IMG, alt: text, caption: text, link: '/about' },
          {
            type: 'gallery',
            items: [
              { mediaId: IMG, alt: text, caption: text },
              { mediaId: IMG2, alt: text },
            ],
          },
          { type: 'links', items: [{ label: text, url: 'https://example.com/?q=<x>&y="z"' }] },
          { type: 'button', label: text, url: '/about#team', style: 'secondary' },
          {
            type: 'columns',
            columns: [
              { blocks: [{ type: 'text', markdown: md }] },
              {
                blocks: [
                  { type: 'heading', level: 3, text },
                  { type: 'form', formId: FORM },
                ],
              },
            ],
          },
          { type: 'divider', id: 'end' },
        ],
      },
      { path: '/about', title: text, blocks: [{ type: 'text', markdown: md }] },
      { path: '/blog/2026/first-post', title: 'First', blocks: [{ type: 'heading', text: 'First' }] },
    ],
    navigation: {
      items: [
        { label: text, url: '/' },
        { label: 'About', url: '/about' },
        { label: 'Elsewhere', url: 'https://example.org/' },
      ],
    },
    footer: { markdown: md, links: [{ label: text, url: 'mailto:me@example.com' }] },
  });
}

const ELEMENTS = new Set(
  'html head body meta title link a header nav ul ol li main footer div p h1 h2 h3 h4 em strong code pre blockquote hr br figure figcaption img form label input textarea select option button small span'.split(
    ' ',
  ),
);
const ATTRIBUTES = new Set(
  'class id href rel src alt width height loading decoding lang charset name content method action accept-charset type required maxlength autocomplete tabindex for value start aria-current aria-label aria-hidden aria-labelledby aria-describedby property'.split(
    ' ',
  ),
);
const URL_ATTRIBUTES = new Set(['href', 'src', 'action']);

/** Every element of a parsed document, depth first. */
function elements(node: Node): Element[] {
  const out: Element[] = [];
  const visit = (n: Node) => {
    if ('tagName' in n) out.push(n);
    if ('childNodes' in n) n.childNodes.forEach(visit);
    if ('content' in n && n.content) visit(n.content as Node);
  };
  visit(node);
  return out;
}

const textOf = (node: Node): string =>
  'value' in node && node.nodeName === '#text'
    ? node.value
    : 'childNodes' in node
      ? node.childNodes.map(textOf).join('')
      : '';

/** The problems a browser-built tree of this page has; an empty list means inert. */
function unsafeParts(html: string): string[] {
  const problems: string[] = [];
  for (const el of elements(parse(html))) {
    if (!ELEMENTS.has(el.tagName)) problems.push(`element <${el.tagName}>`);
    for (const { name, value } of el.attrs) {
      if (!ATTRIBUTES.has(name)) problems.push(`attribute ${name} on <${el.tagName}>`);
      if (URL_ATTRIBUTES.has(name)) {
        const scheme = /^\s*([a-z][a-z0-9+.-]*):/i.exec(value)?.[1]?.toLowerCase();
        const relative = /^(?:\.\/|\.\.\/|#)/.test(value);
        const allowed = scheme === 'http' || scheme === 'https' || scheme === 'mailto';
        if (!relative && !allowed) problems.push(`${name}="${value}" on <${el.tagName}>`);
        if (/^\s*\/\//.test(value)) problems.push(`protocol-relative ${name}="${value}"`);
      }
    }
    if (el.tagName === 'meta' && el.attrs.some((a) => a.name === 'http-equiv'))
      problems.push('meta http-equiv');
  }
  return problems;
}

const html = (files: RenderedFile[], path: string) => {
  const file = files.find((f) => f.path === path);
  if (!file?.bytes) throw new Error(`no ${path}`);
  return file.bytes.toString('utf8');
};

const site = { title: 'Ada’s site', theme: 'modern' as const, description: 'A site', language: 'en' };

describe('rendering a draft', () => {
  it('writes one page per draft page, the stylesheet and each media item once, sorted by path', () => {
    const files = renderSite({ document: everyBlockDraft('Hi', 'Hello'), site, media, forms: forms() });
    expect(files.map((f) => f.path)).toEqual([
      expect.stringMatching(/^\/_assets\/site\.[0-9a-f]{16}\.css$/),
      `/_media/${'a'.repeat(64)}.png`,
      `/_media/${'b'.repeat(64)}.jpg`,
      '/about/index.html',
      '/blog/2026/first-post/index.html',
      '/index.html',
    ]);
    for (const f of files) {
      if (!f.bytes) continue;
      expect(f.length).toBe(f.bytes.length);
      expect(f.sha256).toBe(createHash('sha256').update(f.bytes).digest('hex'));
    }
    const png = files.find((f) => f.path.endsWith('.png'))!;
    expect(png).toEqual({ path: png.path, contentType: 'image/png', sha256: 'a'.repeat(64), length: 1234 });
    expect(files.find((f) => f.path === '/index.html')!.contentType).toBe('text/html; charset=utf-8');
  });

  it('gives every page a social card and, from the settings, a shared picture and a favicon', () => {
    const card = { sha256: 'c'.repeat(64), contentType: 'image/jpeg', length: 5000 };
    const icon = { sha256: 'd'.repeat(64), contentType: 'image/png', length: 300 };
    const files = renderSite({
      document: everyBlockDraft('Hi', 'Hello'),
      site: { ...site, socialImage: card, favicon: icon },
      media,
      forms: forms(),
    });
    // The pictures are files of the version like any image.
    expect(files.map((f) => f.path)).toContain(`/_media/${'c'.repeat(64)}.jpg`);
    expect(files.map((f) => f.path)).toContain(`/_media/${'d'.repeat(64)}.png`);
    const about = html(files, '/about/index.html');
    expect(about).toContain('<meta property="og:title" content="Hi – Ada’s site">');
    expect(about).toContain('<meta property="og:site_name" content="Ada’s site">');
    expect(about).toContain(`<meta property="og:image" content="../_media/${'c'.repeat(64)}.jpg">`);
    expect(about).toContain('<meta name="twitter:card" content="summary_large_image">');
    expect(about).toContain(`<link rel="icon" type="image/png" href="../_media/${'d'.repeat(64)}.png">`);
    // Without them, the card has the title and description only.
    const plain = html(
      renderSite({ document: everyBlockDraft('Hi', 'Hello'), site, media, forms: forms() }),
      '/index.html',
    );
    expect(plain).toContain('<meta property="og:description" content="About Hi">');
    expect(plain).not.toContain('og:image');
    expect(plain).not.toContain('rel="icon"');
  });

  it('gives the same bytes for the same inputs, whatever the order of the lookups', () => {
    const doc = everyBlockDraft('Hi', 'Hello *there*');
    const a = renderSite({ document: doc, site, media, forms: forms() });
    const b = renderSite({
      document: structuredClone(doc),
      site: { ...site },
      media: new Map([...media].reverse()),
      forms: forms(),
    });
    expect(b).toEqual(a);
  });

  it('renders scripts, handlers and script URLs planted in every field inert', () => {
    const doc = everyBlockDraft(EVIL, EVIL_MARKDOWN);
    const evilForm = forms({
      title: EVIL,
      submitLabel: EVIL,
      fields: [
        { name: `x${EVIL}`, label: EVIL, type: 'text', help: EVIL },
        { name: 'y', label: EVIL, type: `text" onfocus="alert(1)`, required: true },
        { name: 'z', label: EVIL, type: 'select', options: [EVIL, 'ok'] },
        { name: 'w', label: EVIL, type: 'textarea' },
        { name: 'v', label: EVIL, type: 'checkbox' },
      ],
    });
    const files = renderSite({
      document: doc,
      site: { title: EVIL, theme: 'dark', description: EVIL, language: 'en" onload="alert(1)' },
      media,
      forms: evilForm,
    });
    for (const path of ['/index.html', '/about/index.html', '/blog/2026/first-post/index.html']) {
      const page = html(files, path);
      expect(unsafeParts(page), path).toEqual([]);
      // Raw markup never survives as markup (escaped, it reads `&lt;script`).
      expect(page).not.toMatch(/<script|<style|<iframe|<svg|\sstyle=/i);
    }
    // What was planted is shown as text: the heading's text is the attacker's string, verbatim.
    const home = parse(html(files, '/index.html'));
    const h1 = elements(home).find((e) => e.tagName === 'h1')!;
    expect(textOf(h1)).toBe(EVIL);
    const lang = elements(home)
      .find((e) => e.tagName === 'html')!
      .attrs.find((a) => a.name === 'lang');
    expect(lang?.value).toBe('en');
    // No draft text reaches the stylesheet.
    const css = files.find((f) => f.path.endsWith('.css'))!.bytes!.toString('utf8');
    expect(css).toBe(
      renderSite({
        document: everyBlockDraft('x', 'y'),
        site: { ...site, theme: 'dark' },
        media,
        forms: forms(),
      })
        .find((f) => f.path.endsWith('.css'))!
        .bytes!.toString('utf8'),
    );
    expect(css).not.toMatch(/url\(|@import|expression\(/i);
  });

  it('drops the anchor of a link that is not http(s), mailto or a site path, even if one got past the schema', () => {
    // A document straight from storage is not re-parsed here: the renderer checks links on its own.
    const doc = everyBlockDraft('t', 'm') as DraftDocument;
    const tampered: DraftDocument = {
      ...doc,
      navigation: { items: [{ label: 'Evil', url: 'javascript:alert(1)' }] },
      footer: { markdown: '', links: [{ label: 'Data', url: 'data:text/html,x' }] },
      pages: [
        {
          path: '/',
          title: 'Home',
          blocks: [
            { type: 'button', label: 'Click', url: 'javascript:alert(2)', style: 'primary' },
            { type: 'links', items: [{ label: 'L', url: '//evil.example' }] },
            { type: 'image', mediaId: IMG, alt: 'a', link: 'vbscript:x' },
          ],
        },
      ],
    };
    const files = renderSite({ document: tampered, site, media, forms: forms() });
    const page = html(files, '/index.html');
    expect(unsafeParts(page)).toEqual([]);
    expect(page).not.toMatch(/javascript:|vbscript:|data:text|\/\/evil/);
    expect(page).toContain('<span class="button button-primary">Click</span>');
  });

  it('writes links between the files of a version relative, so the bytes work under any prefix', () => {
    const files = renderSite({
      document: everyBlockDraft('Hi', '[About](/about) [Top](/#end)'),
      site,
      media,
      forms: forms(),
    });
    const deep = parse(html(files, '/blog/2026/first-post/index.html'));
    const hrefs = elements(deep).flatMap((e) => e.attrs.filter((a) => a.name === 'href').map((a) => a.value));
    expect(hrefs).toContain('../../../');
    expect(hrefs).toContain('../../../about/');
    expect(hrefs.find((h) => h.endsWith('.css'))).toMatch(
      /^\.\.\/\.\.\/\.\.\/_assets\/site\.[0-9a-f]{16}\.css$/,
    );
    const home = html(files, '/index.html');
    expect(home).toContain('<a href="./about/">About</a>');
    expect(home).toContain('<a href="./#end">Top</a>');
    expect(home).toContain(`src="./_media/${'a'.repeat(64)}.png"`);
    expect(home).toContain(`action="./_forms/${FORM}"`);
    expect(home).toContain('href="https://example.org/" rel="noopener nofollow ugc"');
    // The current page is marked in the navigation.
    expect(html(files, '/about/index.html')).toContain('<a href="../about/" aria-current="page">About</a>');
  });

  it('renders a form posting to the site origin with a honeypot people never see', () => {
    const files = renderSite({ document: everyBlockDraft('Hi', 'x'), site, media, forms: forms() });
    const form = elements(parse(html(files, '/index.html'))).find((e) => e.tagName === 'form')!;
    const attr = (e: Element, n: string) => e.attrs.find((a) => a.name === n)?.value;
    expect(attr(form, 'method')).toBe('post');
    expect(attr(form, 'action')).toBe(`./_forms/${FORM}`);
    const controls = elements(form).filter((e) => ['input', 'textarea', 'select'].includes(e.tagName));
    expect(controls.map((c) => attr(c, 'name'))).toEqual(['email', 'message', 'topic', 'agree', 'website']);
    const honeypot = controls.find((c) => attr(c, 'name') === 'website')!;
    expect(attr(honeypot, 'tabindex')).toBe('-1');
    expect(attr(honeypot, 'autocomplete')).toBe('off');
    expect(elements(form).find((e) => attr(e, 'class') === 'hp')?.attrs).toContainEqual({
      name: 'aria-hidden',
      value: 'true',
    });
    // Every visible control has a label.
    for (const c of controls.filter((c) => attr(c, 'name') !== 'website')) {
      const id = attr(c, 'id')!;
      expect(elements(form).some((e) => e.tagName === 'label' && attr(e, 'for') === id)).toBe(true);
    }
    const email = controls.find((c) => attr(c, 'name') === 'email')!;
    expect(attr(email, 'type')).toBe('email');
    expect(email.attrs.some((a) => a.name === 'required')).toBe(true);
  });

  it('is accessible: language, title, landmarks, skip link, alt text and image sizes', () => {
    const files = renderSite({
      document: everyBlockDraft('Hi', 'x'),
      site: { ...site, language: 'pt-BR' },
      media,
      forms: forms(),
    });
    const doc = parse(html(files, '/index.html'));
    const all = elements(doc);
    const attr = (e: Element, n: string) => e.attrs.find((a) => a.name === n)?.value;
    expect(
      attr(
        all.find((e) => e.tagName === 'html')!,
        'lang',
      ),
    ).toBe('pt-BR');
    expect(textOf(all.find((e) => e.tagName === 'title')!)).toBe('Home Hi – Ada’s site');
    for (const tag of ['header', 'nav', 'main', 'footer'])
      expect(all.some((e) => e.tagName === tag)).toBe(true);
    expect(
      attr(
        all.find((e) => e.tagName === 'main')!,
        'id',
      ),
    ).toBe('main');
    expect(all.some((e) => e.tagName === 'a' && attr(e, 'href') === '#main')).toBe(true);
    const imgs = all.filter((e) => e.tagName === 'img');
    expect(imgs.length).toBe(3);
    for (const img of imgs) expect(attr(img, 'alt')).toBe('Hi');
    expect(attr(imgs[0]!, 'width')).toBe('800');
    expect(attr(imgs[0]!, 'height')).toBe('600');
    expect(
      attr(
        all.find((e) => e.tagName === 'meta' && attr(e, 'name') === 'viewport')!,
        'content',
      ),
    ).toBe('width=device-width, initial-scale=1');
    // An unusable language tag falls back to English.
    const bad = renderSite({
      document: everyBlockDraft('Hi', 'x'),
      site: { ...site, language: 'not a tag' },
      media,
      forms: forms(),
    });
    expect(html(bad, '/index.html')).toContain('<html lang="en">');
  });

  it('names every page with one level-one heading: its own heading block, else the page title', () => {
    const files = renderSite({ document: everyBlockDraft('Hi', 'x'), site, media, forms: forms() });
    const h1s = (path: string) =>
      elements(parse(html(files, path)))
        .filter((e) => e.tagName === 'h1')
        .map(textOf);
    expect(h1s('/index.html')).toEqual(['Hi']); // its level-1 heading block, nothing added
    expect(h1s('/about/index.html')).toEqual(['Hi']); // text only: the page title
    // A level-2 heading block only: the title's h1 comes first, so the headings go in order.
    expect(h1s('/blog/2026/first-post/index.html')).toEqual(['First']);
    expect(html(files, '/blog/2026/first-post/index.html')).toMatch(
      /<main id="main" class="wrap">\n<h1>First<\/h1>\n<h2>First<\/h2>/,
    );
  });

  it('gives each theme its own stylesheet file, and no page styles anything itself', () => {
    const names = new Set<string>();
    for (const theme of ['classic', 'modern', 'dark'] as const) {
      const files = renderSite({
        document: everyBlockDraft('Hi', 'x'),
        site: { ...site, theme },
        media,
        forms: forms(),
      });
      const css = files.find((f) => f.path.endsWith('.css'))!;
      expect(css.contentType).toBe('text/css; charset=utf-8');
      expect(css.path).toBe(`/_assets/site.${css.sha256.slice(0, 16)}.css`);
      names.add(css.path);
      expect(html(files, '/index.html')).not.toMatch(/<style|\sstyle=/);
    }
    expect(names.size).toBe(3);
  });

  it('refuses a media item or form the lookups do not hold (builder.unknown_reference)', () => {
    const doc = everyBlockDraft('Hi', 'x');
    const codeOf = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return isDomainError(e) ? e.code : String(e);
      }
      return 'no error';
    };
    expect(codeOf(() => renderSite({ document: doc, site, media: new Map(), forms: forms() }))).toBe(
      'builder.unknown_reference',
    );
    expect(codeOf(() => renderSite({ document: doc, site, media, forms: new Map() }))).toBe(
      'builder.unknown_reference',
    );
    const svgless = new Map(media);
    svgless.set(IMG, { sha256: 'c'.repeat(64), contentType: 'application/pdf', length: 1 });
    expect(codeOf(() => renderSite({ document: doc, site, media: svgless, forms: forms() }))).toBe(
      'builder.unknown_reference',
    );
  });
});

describe('the Markdown subset', () => {
  const place = { pagePath: '/docs' };
  it('renders paragraphs, emphasis, strong, links, lists, quotes, code and rules', () => {
    const out = renderMarkdown(
      'One *em* **strong** `code` [site](/a) [web](https://x.example) [mail](mailto:a@b.example)\nnext\n\n- a\n- b\n\n3. c\n4. d\n\n> q\n\n    indented\n\n---',
      place,
    );
    expect(out).toBe(
      [
        '<p>One <em>em</em> <strong>strong</strong> <code>code</code> <a href="../a/">site</a> <a href="https://x.example" rel="noopener nofollow ugc">web</a> <a href="mailto:a@b.example">mail</a><br>',
        'next</p>',
        '<ul>',
        '<li>a</li>',
        '<li>b</li>',
        '</ul>',
        '<ol start="3">',
        '<li>c</li>',
        '<li>d</li>',
        '</ol>',
        '<blockquote>',
        '<p>q</p>',
        '</blockquote>',
        '<pre><code>indented',
        '</code></pre>',
        '<hr>',
        '',
      ].join('\n'),
    );
  });

  it('given an address typed on two lines, then one paragraph with a line break; a blank line makes two paragraphs', () => {
    expect(renderMarkdown('12 Mill Street\n4051 Riverton', place)).toBe(
      '<p>12 Mill Street<br>\n4051 Riverton</p>\n',
    );
    expect(renderMarkdown('12 Mill Street\r\n4051 Riverton', place)).toBe(
      '<p>12 Mill Street<br>\n4051 Riverton</p>\n',
    );
    expect(renderMarkdown('Mill <b>Street</b>\n4051 & Co', place)).toBe(
      '<p>Mill &lt;b&gt;Street&lt;/b&gt;<br>\n4051 &amp; Co</p>\n',
    );
    expect(renderMarkdown('Street\n\nTown', place)).toBe('<p>Street</p>\n<p>Town</p>\n');
    // Inside a list item and a quote as well.
    expect(renderMarkdown('- a\n  b', place)).toBe('<ul>\n<li>a<br>\nb</li>\n</ul>\n');
    expect(renderMarkdown('> a\n> b', place)).toBe('<blockquote>\n<p>a<br>\nb</p>\n</blockquote>\n');
  });

  it('leaves headings, images, tables and raw HTML as text', () => {
    const out = renderMarkdown(
      '# Title\n\n![x](https://x.example/a.png)\n\n| a |\n|---|\n\n<b>bold</b>',
      place,
    );
    expect(out).not.toMatch(/<h1|<img|<table|<b>/);
    expect(out).toContain('&lt;b&gt;bold&lt;/b&gt;');
  });

  it('names the links that would not render as links', () => {
    expect(
      unsafeMarkdownLinks(
        '[a](javascript:alert(1)) [b](/ok) [c](https://ok.example) [d](data:x) <vbscript:y>',
      ),
    ).toEqual(['javascript:alert(1)', 'data:x', 'vbscript:y']);
    expect(unsafeMarkdownLinks('plain text')).toEqual([]);
  });
});
