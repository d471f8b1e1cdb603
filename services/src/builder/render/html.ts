// Escaping and the URLs our pages write. Every link between the files of a version is relative, so the
// same bytes work wherever the version is served: on its own host, under `/sites/<label>/` and under a
// preview URL (docs/builder.md#rendering). Pages are directories: `/about` is the file
// `/about/index.html`, reached at `/about/`.

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text or an attribute value, escaped for HTML (both quote kinds, so any attribute quoting is safe). */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/** The file a page's HTML is stored at: `/` → `/index.html`, `/a/b` → `/a/b/index.html`. */
export const pageFilePath = (pagePath: string): string =>
  pagePath === '/' ? '/index.html' : `${pagePath}/index.html`;

const segmentsOf = (path: string): string[] => path.split('/').filter((s) => s.length > 0);

/** `../` once per directory between a page and the site's root (`./` at the root). */
const toRoot = (pagePath: string): string => {
  const depth = segmentsOf(pagePath).length;
  return depth === 0 ? './' : '../'.repeat(depth);
};

/**
 * A link from a page to a path of the same site (`/contact`, `/contact#form`, `/`), relative and ending
 * in `/` (a page is a directory).
 */
export function siteHref(fromPagePath: string, target: string): string {
  const hash = target.indexOf('#');
  const path = hash < 0 ? target : target.slice(0, hash);
  const fragment = hash < 0 ? '' : target.slice(hash);
  const segments = segmentsOf(path);
  const rel = toRoot(fromPagePath) + (segments.length > 0 ? `${segments.join('/')}/` : '');
  return rel + fragment;
}

/** A link from a page to a file of the version (`/_assets/…`, `/_media/…`, `/_forms/…`), relative. */
export const fileHref = (fromPagePath: string, filePath: string): string =>
  toRoot(fromPagePath) + filePath.replace(/^\/+/, '');
