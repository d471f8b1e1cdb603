// A version's manifest: every file's path, SHA-256, content type and length, sorted by path; its hash is
// the SHA-256 of the manifest's RFC 8785 (JCS) text, the canonical form the signed envelope uses, so a
// peer holding the signed `site.published` can recompute it and check every file it fetches
// (docs/builder.md#versions).
import { createHash } from 'node:crypto';
import canonicalizeModule from 'canonicalize';
import { manifestSchema, type ManifestEntry } from '@tributary/domain';
import { pageFilePath } from './render/html.js';

// CommonJS whose typings declare an ES default export; at run time the default import is the function.
const canonicalize = canonicalizeModule as unknown as (input: unknown) => string | undefined;

const byPath = (a: ManifestEntry, b: ManifestEntry) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

/** The manifest of some files: only the four fields, sorted by path (UTF-16 code units, as JCS sorts). */
export function manifestOf(
  files: readonly { path: string; sha256: string; contentType: string; length: number }[],
): ManifestEntry[] {
  const entries = files
    .map(({ path, sha256, contentType, length }) => ({ path, sha256, contentType, length }))
    .sort(byPath);
  for (let i = 1; i < entries.length; i++)
    if (entries[i - 1]!.path === entries[i]!.path)
      throw new Error(`duplicate manifest path ${entries[i]!.path}`);
  return manifestSchema.parse(entries);
}

/** The RFC 8785 text the manifest hash covers. */
export function canonicalManifestText(manifest: readonly ManifestEntry[]): string {
  const text = canonicalize(manifest);
  if (text === undefined) throw new TypeError('manifest has no JSON form');
  return text;
}

/** Lower-case hex SHA-256 of the manifest's canonical UTF-8 text. */
export const manifestHash = (manifest: readonly ManifestEntry[]): string =>
  createHash('sha256').update(canonicalManifestText(manifest), 'utf8').digest('hex');

export type ManifestLookup =
  | { kind: 'file'; entry: ManifestEntry }
  /**
   * A page asked for without its trailing slash: its links are relative, so it is only served at `/…/`.
   * `location` is relative too (`about/`), right under any prefix the site is served at.
   */
  | { kind: 'redirect'; location: string }
  | { kind: 'missing' };

/**
 * Which file of a version answers a request path (already percent-decoded, without the query):
 * `/` and `/about/` are pages (`/index.html`, `/about/index.html`); `/about` redirects to `about/`;
 * anything else is looked up as it is. The site server and the preview route both answer this way.
 */
export function lookupManifest(manifest: readonly ManifestEntry[], requestPath: string): ManifestLookup {
  const find = (path: string) => {
    // Sorted by path: a binary search keeps a 5000-file version as cheap as a small one.
    let lo = 0;
    let hi = manifest.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const p = manifest[mid]!.path;
      if (p === path) return manifest[mid];
      if (p < path) lo = mid + 1;
      else hi = mid - 1;
    }
    return undefined;
  };
  // One spelling per file: no empty, `.` or `..` segments (the manifest has none to match anyway).
  if (!requestPath.startsWith('/') || /\/\/|\/\.\.?(?:\/|$)/.test(requestPath)) return { kind: 'missing' };
  if (requestPath.endsWith('/')) {
    const entry = find(pageFilePath(requestPath === '/' ? '/' : requestPath.slice(0, -1)));
    return entry ? { kind: 'file', entry } : { kind: 'missing' };
  }
  const exact = find(requestPath);
  if (exact) return { kind: 'file', entry: exact };
  if (find(pageFilePath(requestPath)))
    return { kind: 'redirect', location: `${requestPath.slice(requestPath.lastIndexOf('/') + 1)}/` };
  return { kind: 'missing' };
}
