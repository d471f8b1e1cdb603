// The headers every answer of a published site carries (docs/builder.md#headers). Pages hold no script
// by construction; the policy makes sure none would run even if one slipped through, and the sandbox
// gives every page an opaque origin, so a page served at /sites/<label>/ on the application's host
// cannot act as the application either.
import type { ManifestEntry } from '@tributary/domain';

/** Where a browser posts CSP violation reports, relative to the site's root. */
export const CSP_REPORT_PATH = '/_csp-report';

/**
 * The Content-Security-Policy of a site whose root is at `root` (`''` on its own host, `/sites/<label>`).
 * `frameAncestor`: the one origin that may frame it (the application's, for a preview on the preview
 * host); otherwise nobody may.
 */
export function siteCsp(root: string, frameAncestor?: string): string {
  return [
    "default-src 'none'",
    "img-src 'self'",
    "style-src 'self'",
    "font-src 'self'",
    "form-action 'self'",
    "base-uri 'none'",
    `frame-ancestors ${frameAncestor ?? "'none'"}`,
    // No allow-scripts and no allow-same-origin: no script, and an opaque origin for the page.
    'sandbox allow-forms allow-popups allow-popups-to-escape-sandbox',
    // report-uri rather than report-to: Chromium ignores report-uri when report-to is present, and
    // report-to batches reports for up to a minute.
    `report-uri ${root}${CSP_REPORT_PATH}`,
  ].join('; ');
}

/** Headers on every site answer, whatever the status: flat name/value pairs for `writeHead`. */
export function securityHeaders(root: string, frameAncestor?: string): string[] {
  return [
    'Content-Security-Policy',
    siteCsp(root, frameAncestor),
    'X-Content-Type-Options',
    'nosniff',
    'Referrer-Policy',
    'no-referrer',
    // X-Frame-Options cannot name an origin; frame-ancestors governs where it is given.
    ...(frameAncestor ? [] : ['X-Frame-Options', 'DENY']),
    'Cross-Origin-Opener-Policy',
    'same-origin',
  ];
}

/** One year: what `immutable` promises for files whose name carries their own hash. */
export const IMMUTABLE_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;
const HASHED_FOLDERS = ['/_media/', '/_assets/'];
/** How much of its own SHA-256 a file name must carry to count as hashed. */
const HASH_PREFIX = 8;

/**
 * A file is cached as immutable only when it sits in a hashed folder and its name carries (a prefix of)
 * the SHA-256 of its bytes: then a new content always has a new URL. Everything else is revalidated.
 */
export function isHashedFile(entry: ManifestEntry): boolean {
  if (!HASHED_FOLDERS.some((f) => entry.path.startsWith(f))) return false;
  const name = entry.path.slice(entry.path.lastIndexOf('/') + 1);
  return name.includes(entry.sha256.slice(0, HASH_PREFIX));
}

export function cacheControlFor(entry: ManifestEntry, pageMaxAgeSeconds: number): string {
  return isHashedFile(entry)
    ? `public, max-age=${IMMUTABLE_MAX_AGE_SECONDS}, immutable`
    : pageMaxAgeSeconds === 0
      ? // Revalidated on every visit (a 304 by ETag when unchanged), so a publish or a rollback shows at once.
        'public, no-cache'
      : `public, max-age=${pageMaxAgeSeconds}, must-revalidate`;
}

/** The strong validator of a file: its content hash. */
export const etagOf = (entry: ManifestEntry) => `"${entry.sha256}"`;

/** RFC 9110 §13.1.2: If-None-Match matches with the weak comparison, `*` matches any current file. */
export function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  for (const part of header.split(',')) {
    const tag = part.trim();
    if ((tag.startsWith('W/') ? tag.slice(2) : tag) === etag) return true;
  }
  return false;
}
