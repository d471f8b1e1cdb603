// A draft to the files of a version: one index.html per page, the theme's stylesheet under a name that
// carries its hash, and the media the pages show (docs/builder.md#rendering). Pure apart from hashing:
// the same draft, settings and lookups give the same bytes, so an unchanged draft renders to the same
// manifest and the same version.
import { createHash } from 'node:crypto';
import { draftReferences, type DraftBlock, type DraftPage, type LeafBlock } from '@tributary/domain';
import { renderMarkdown } from '../markdown.js';
import { link, renderBlock, mediaFilePath, type BlockPlace } from './blocks.js';
import { escapeHtml, fileHref, pageFilePath, siteHref } from './html.js';
import type { RenderedFile, RenderInput, RenderSiteSettings } from './render-input.js';
import { themeStylesheet } from './themes.js';

const HTML = 'text/html; charset=utf-8';
const CSS = 'text/css; charset=utf-8';
/** A BCP 47 tag in its common shape (`en`, `pt-BR`, `zh-Hant-TW`). */
const LANGUAGE_TAG = /^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8}){0,3}$/;

const sha256Hex = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

const fileOf = (path: string, contentType: string, text: string): RenderedFile => {
  const bytes = Buffer.from(text, 'utf8');
  return { path, contentType, sha256: sha256Hex(bytes), length: bytes.length, bytes };
};

/** The stylesheet's path: its content's hash in the name, so it can be cached for good. */
export const stylesheetPath = (css: string) =>
  `/_assets/site.${sha256Hex(Buffer.from(css, 'utf8')).slice(0, 16)}.css`;

/** Whether a navigation URL names this page (only site paths can). */
function isCurrent(url: string, pagePath: string): boolean {
  if (!url.startsWith('/')) return false;
  const path = url.split('#')[0]!.replace(/\/+$/, '') || '/';
  return path === pagePath;
}

/** Whether the page's blocks (columns included) give it a level-one heading of its own. */
const hasLevelOneHeading = (blocks: readonly (DraftBlock | LeafBlock)[]): boolean =>
  blocks.some(
    (b) =>
      (b.type === 'heading' && b.level === 1) ||
      (b.type === 'columns' && b.columns.some((c) => hasLevelOneHeading(c.blocks))),
  );

interface PageFrame {
  site: RenderSiteSettings;
  language: string;
  stylesheet: string;
  input: RenderInput;
}

function pageHtml(page: DraftPage, frame: PageFrame): string {
  const { site, input } = frame;
  const place: BlockPlace = {
    pagePath: page.path,
    media: input.media,
    forms: input.forms,
    ids: new Set(['main']),
    formCount: { n: 0 },
  };
  const title = page.path === '/' && page.title === site.title ? site.title : `${page.title} – ${site.title}`;
  const description = page.description || site.description;
  const nav = input.document.navigation.items;
  const navHtml =
    nav.length === 0
      ? ''
      : `\n<nav class="site-nav" aria-label="Main">\n<ul>\n${nav
          .map((item) => {
            const current = isCurrent(item.url, page.path) ? ' aria-current="page"' : '';
            return `<li>${link(item.label, item.url, place, undefined, current)}</li>`;
          })
          .join('\n')}\n</ul>\n</nav>`;
  // Every page is named by a level-one heading (assistive technology lists and jumps by them): the
  // page's title when its author gave it none.
  const heading = hasLevelOneHeading(page.blocks) ? '' : `<h1>${escapeHtml(page.title)}</h1>\n`;
  const body = heading + page.blocks.map((b) => renderBlock(b, place)).join('\n');
  const footer = input.document.footer;
  const footerLinks =
    footer.links.length === 0
      ? ''
      : `<ul class="footer-links">\n${footer.links
          .map((l) => `<li>${link(l.label, l.url, place)}</li>`)
          .join('\n')}\n</ul>\n`;
  const footerText = footer.markdown.trim() ? renderMarkdown(footer.markdown, place) : '';
  const footerHtml =
    footerLinks || footerText
      ? `<footer class="site-footer">\n<div class="wrap">\n${footerLinks}${footerText}</div>\n</footer>\n`
      : '';
  const home = page.path === '/' ? ' aria-current="page"' : '';
  // The social card (Open Graph, which most chat and social apps read) and the tab's icon. Links stay
  // relative like every other: the same bytes serve every host (docs/builder.md#rendering).
  const card = [
    `<meta property="og:title" content="${escapeHtml(title)}">`,
    `<meta property="og:type" content="website">`,
    `<meta property="og:site_name" content="${escapeHtml(site.title)}">`,
    ...(description ? [`<meta property="og:description" content="${escapeHtml(description)}">`] : []),
    ...(site.socialImage
      ? [
          `<meta property="og:image" content="${escapeHtml(fileHref(page.path, mediaFilePath(site.socialImage)))}">`,
          `<meta name="twitter:card" content="summary_large_image">`,
        ]
      : []),
    ...(site.favicon
      ? [
          `<link rel="icon" type="${escapeHtml(site.favicon.contentType)}" href="${escapeHtml(fileHref(page.path, mediaFilePath(site.favicon)))}">`,
        ]
      : []),
  ].join('\n');
  return `<!doctype html>
<html lang="${escapeHtml(frame.language)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
${description ? `<meta name="description" content="${escapeHtml(description)}">\n` : ''}<meta name="generator" content="Tributary">
${card}
<link rel="stylesheet" href="${escapeHtml(fileHref(page.path, frame.stylesheet))}">
</head>
<body>
<a class="skip-link" href="#main">Skip to content</a>
<header class="site-header">
<div class="wrap">
<a class="site-title" href="${escapeHtml(siteHref(page.path, '/'))}"${home}>${escapeHtml(site.title)}</a>${navHtml}
</div>
</header>
<main id="main" class="wrap">
${body}
</main>
${footerHtml}</body>
</html>
`;
}

/** Every file of the version, sorted by path. Throws `builder.unknown_reference` for a missing item. */
export function renderSite(input: RenderInput): RenderedFile[] {
  const css = themeStylesheet(input.site.theme);
  const stylesheet = stylesheetPath(css);
  const language = input.site.language && LANGUAGE_TAG.test(input.site.language) ? input.site.language : 'en';
  const frame: PageFrame = { site: input.site, language, stylesheet, input };
  const files: RenderedFile[] = [fileOf(stylesheet, CSS, css)];
  for (const page of input.document.pages)
    files.push(fileOf(pageFilePath(page.path), HTML, pageHtml(page, frame)));
  // Each media item once, however many blocks show it; unknown ones were refused while rendering.
  const seen = new Set<string>();
  const settingsMedia = [input.site.socialImage, input.site.favicon].filter((m) => m !== undefined);
  for (const media of [
    ...draftReferences(input.document).mediaIds.map((id) => input.media.get(id)!),
    ...settingsMedia,
  ]) {
    const path = mediaFilePath(media);
    if (seen.has(path)) continue;
    seen.add(path);
    files.push({ path, contentType: media.contentType, sha256: media.sha256, length: media.length });
  }
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
