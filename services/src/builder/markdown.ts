// The Markdown subset of text blocks and the footer: paragraphs, emphasis, strong, links, lists, quotes,
// code and rules — nothing else. markdown-it parses (raw HTML, linkify, images, tables and headings off);
// the HTML is written here from the tokens, by a walker that knows only those elements, so every tag and
// attribute in the output comes from this file and every text is escaped. A link that is not
// `isSafeLink` keeps its text and loses the anchor (docs/builder.md#rendering).
import MarkdownIt, { type Token } from 'markdown-it';
import { isHttpUrl, isSafeLink } from '@tributary/domain';
import { escapeHtml, siteHref } from './render/html.js';

const BLOCK_RULES = ['blockquote', 'code', 'fence', 'hr', 'list', 'paragraph'];
const INLINE_RULES = ['newline', 'escape', 'backticks', 'emphasis', 'link', 'autolink', 'entity'];

function subsetParser(html: boolean): MarkdownIt {
  const md = new MarkdownIt('zero', { html, linkify: false, typographer: false, breaks: false });
  md.enable(BLOCK_RULES);
  md.enable(INLINE_RULES);
  if (html) md.enable(['html_block', 'html_inline']);
  // Every destination is judged by isSafeLink after parsing (markdown-it's own check would blank the
  // href and keep the anchor; here an unsafe link keeps only its text, and unsafeMarkdownLinks can name it).
  md.validateLink = () => true;
  return md;
}

const parser = subsetParser(false);
/**
 * The same subset with raw HTML parsed as HTML, only to find it: the renderer shows raw HTML as text,
 * but save_draft refuses it (markdownProblem), so a draft never holds what reads as a tag.
 */
const checker = subsetParser(true);

/** Where the HTML is placed: the page's path, so links to other pages of the site can be relative. */
export interface MarkdownPlace {
  pagePath: string;
}

/** The HTML of a Markdown-subset text. Deterministic: the same text and place give the same bytes. */
export function renderMarkdown(source: string, place: MarkdownPlace): string {
  return renderBlocks(parser.parse(source, {}), place);
}

/** The link destinations of a text that would not render as links (not http(s), mailto or a site path). */
export function unsafeMarkdownLinks(source: string): string[] {
  const unsafe: string[] = [];
  const visit = (tokens: Token[]) => {
    for (const t of tokens) {
      if (t.type === 'link_open') {
        const href = t.attrGet('href') ?? '';
        if (!isSafeLink(href)) unsafe.push(href);
      }
      if (t.children) visit(t.children);
    }
  };
  visit(parser.parse(source, {}));
  return unsafe;
}

export type MarkdownProblem = { reason: 'raw_html'; html: string } | { reason: 'unsafe_link'; link: string };

/**
 * What save_draft refuses in a text (builder.unsafe_content): the first raw HTML (a tag, a comment, a
 * declaration) or link destination that is not http(s), mailto or a site path; null when there is none.
 * The same parser as the renderer's, plus raw HTML, so what is refused is what the renderer would see.
 */
export function markdownProblem(source: string): MarkdownProblem | null {
  const visit = (tokens: Token[]): MarkdownProblem | null => {
    for (const t of tokens) {
      if (t.type === 'html_block' || t.type === 'html_inline')
        return { reason: 'raw_html', html: t.content.trim().slice(0, 100) };
      if (t.type === 'link_open') {
        const href = t.attrGet('href') ?? '';
        if (!isSafeLink(href)) return { reason: 'unsafe_link', link: href.slice(0, 200) };
      }
      if (t.children) {
        const inner = visit(t.children);
        if (inner) return inner;
      }
    }
    return null;
  };
  return visit(checker.parse(source, {}));
}

/** Attributes of a link our pages write: external ones are not vouched for (`nofollow ugc`). */
export function linkAttributes(href: string, place: MarkdownPlace): string {
  if (isHttpUrl(href)) return `href="${escapeHtml(href)}" rel="noopener nofollow ugc"`;
  if (href.startsWith('/')) return `href="${escapeHtml(siteHref(place.pagePath, href))}"`;
  return `href="${escapeHtml(href)}"`;
}

function renderBlocks(tokens: Token[], place: MarkdownPlace): string {
  let out = '';
  for (const t of tokens) {
    switch (t.type) {
      case 'paragraph_open':
        if (!t.hidden) out += '<p>';
        break;
      case 'paragraph_close':
        if (!t.hidden) out += '</p>\n';
        break;
      case 'bullet_list_open':
        out += '<ul>\n';
        break;
      case 'bullet_list_close':
        out += '</ul>\n';
        break;
      case 'ordered_list_open': {
        const start = Number(t.attrGet('start') ?? '1');
        out += Number.isSafeInteger(start) && start !== 1 ? `<ol start="${start}">\n` : '<ol>\n';
        break;
      }
      case 'ordered_list_close':
        out += '</ol>\n';
        break;
      case 'list_item_open':
        out += '<li>';
        break;
      case 'list_item_close':
        out += '</li>\n';
        break;
      case 'blockquote_open':
        out += '<blockquote>\n';
        break;
      case 'blockquote_close':
        out += '</blockquote>\n';
        break;
      case 'hr':
        out += '<hr>\n';
        break;
      case 'code_block':
      case 'fence':
        // The fence's info string (a language name) is not carried over: no class comes from the text.
        out += `<pre><code>${escapeHtml(t.content)}</code></pre>\n`;
        break;
      case 'inline':
        out += renderInline(t.children ?? [], place);
        break;
      default:
        // The parser has no other block rule enabled; anything else would be a new markdown-it token,
        // and its text (if any) is shown escaped rather than trusted.
        if (t.content) out += escapeHtml(t.content);
    }
  }
  return out;
}

function renderInline(tokens: Token[], place: MarkdownPlace): string {
  let out = '';
  /** For each open link: whether its anchor was written (an unsafe one keeps only its text). */
  const links: boolean[] = [];
  for (const t of tokens) {
    switch (t.type) {
      case 'text':
        out += escapeHtml(t.content);
        break;
      case 'softbreak':
        // A line ended inside a paragraph stays a line (an address, a poem), as people who type it expect:
        // only a blank line starts a new paragraph.
        out += '<br>\n';
        break;
      case 'hardbreak':
        out += '<br>\n';
        break;
      case 'code_inline':
        out += `<code>${escapeHtml(t.content)}</code>`;
        break;
      case 'em_open':
        out += '<em>';
        break;
      case 'em_close':
        out += '</em>';
        break;
      case 'strong_open':
        out += '<strong>';
        break;
      case 'strong_close':
        out += '</strong>';
        break;
      case 'link_open': {
        const href = t.attrGet('href') ?? '';
        const safe = isSafeLink(href);
        links.push(safe);
        if (safe) out += `<a ${linkAttributes(href, place)}>`;
        break;
      }
      case 'link_close':
        if (links.pop()) out += '</a>';
        break;
      default:
        if (t.content) out += escapeHtml(t.content);
    }
  }
  return out;
}
