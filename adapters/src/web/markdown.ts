// Markdown shown on a page (the assistant's vault document), rendered inert: markdown-it with raw HTML
// off (a tag in the text is shown as text), no images (nothing loads from a URL in the text), no
// linkify, and links only to http(s) and mailto: anything else (javascript:, data:, vbscript:, a path
// of this app) keeps its text and loses the link. External links get rel="noopener nofollow ugc".
// Headings are moved down by `headingOffset` so a document's `#` never competes with the page's h1.
import MarkdownIt from 'markdown-it';
import { raw, type Html } from './html.js';

const SAFE_LINK = /^(?:https?:\/\/[^\s]+|mailto:[^\s]+@[^\s]+)$/i;

function parser(): MarkdownIt {
  const md = new MarkdownIt('default', { html: false, linkify: false, typographer: false });
  md.disable(['image']);
  // markdown-it's own check refuses javascript: and friends; ours is narrower (http(s) and mailto only).
  md.validateLink = (url) => SAFE_LINK.test(url.trim()) && !/^https?:\/\/[^/]*@/i.test(url.trim());
  const linkOpen = md.renderer.rules.link_open;
  md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
    const t = tokens[idx]!;
    if (/^https?:/i.test(t.attrGet('href') ?? '')) t.attrSet('rel', 'noopener nofollow ugc');
    return linkOpen ? linkOpen(tokens, idx, options, env, self) : self.renderToken(tokens, idx, options);
  };
  return md;
}

const md = parser();

/** The HTML of a Markdown document, safe to place in a page as it is. */
export function pageMarkdown(source: string, o: { headingOffset?: number } = {}): Html {
  const offset = o.headingOffset ?? 1;
  const tokens = md.parse(source, {});
  for (const t of tokens)
    if (t.type === 'heading_open' || t.type === 'heading_close')
      t.tag = `h${Math.min(6, Number(t.tag.slice(1)) + offset)}`;
  // An invalid link (validateLink refused it) is left as text by the parser itself: no anchor is made.
  // `raw` here is markdown-it's output with html off: every text in it is escaped by its renderer.
  return raw(md.renderer.render(tokens, md.options, {}));
}
