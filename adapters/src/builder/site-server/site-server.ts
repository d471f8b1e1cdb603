// Published sites, served by a plain node:http handler that runs before the application's router
// (docs/builder.md#serving): the host (or the /sites/<label>/ path) is looked up in memory, the bytes
// come from a bounded cache in front of the BlobStore, and nothing of the application — no cookie, no
// session, no middleware — is involved.
import type { ManifestEntry } from '@tributary/domain';
import type { BlobStore } from '@tributary/services';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { BlobCache } from './blob-cache.js';
import type { SiteServingSource } from './served-site.js';
import { SiteIndex, SiteIndexRefresher, type IndexedSite } from './site-index.js';
import {
  cacheControlFor,
  CSP_REPORT_PATH,
  etagOf,
  matchesIfNoneMatch,
  securityHeaders,
} from './site-headers.js';
import {
  METHOD_NOT_ALLOWED_PAGE,
  NOT_FOUND_PAGE,
  SERVER_ERROR_PAGE,
  suspendedPage,
  TOO_LARGE_PAGE,
} from './site-pages.js';

/** Where a form on a published site posts: `/_forms/<formId>` on the site's origin. */
export const FORM_PATH = /^\/_forms\/([A-Za-z0-9_-]{1,64})$/;
/** The thank-you page a sent form is redirected to (303 See Other): `/_forms/<formId>/sent`. */
export const FORM_SENT_PATH = /^\/_forms\/([A-Za-z0-9_-]{1,64})\/sent$/;

/** The site a form submission is for, as the site server resolved it from the host or the path. */
export interface FormSubmissionTarget {
  siteId: string;
  ownerAgentId: string;
  formId: string;
  /** The published version the visitor's page came from (null only when nothing is published). */
  versionId: string | null;
}

/**
 * The forms area answers a site's form addresses itself; the site server only resolves the site. The
 * hook must not set cookies: a site origin never does.
 */
export interface FormSubmissionHook {
  /** `POST /_forms/<formId>`: a visitor's submission. */
  submit(req: IncomingMessage, res: ServerResponse, target: FormSubmissionTarget): void | Promise<void>;
  /** `GET /_forms/<formId>/sent`: the thank-you page a submission is redirected to. */
  sent(req: IncomingMessage, res: ServerResponse, target: FormSubmissionTarget): void | Promise<void>;
}

export interface SiteServerOptions {
  /** Addresses are `<label>.<sitesDomain>` (lower-case, no port). */
  sitesDomain: string;
  /** The instance's own URL: the 451 page's `Link: <…>; rel="blocked-by"` names it. */
  baseUrl: string;
  source: SiteServingSource;
  blobs: BlobStore;
  /** The in-memory file cache's size in bytes (SITES_CACHE_BYTES). */
  cacheBytes: number;
  /** `max-age` of pages and other files whose URL does not change with their content. */
  pageMaxAgeSeconds: number;
  forms?: FormSubmissionHook;
  /**
   * Preview URLs `/sites/_preview/<token>/…` on the application host: the version a preview token
   * opens (undefined: 404). Served from the same stored bytes as a publication, never cached, never
   * indexed, and taking no form posts.
   */
  previews?: (token: string) => Promise<PreviewVersion | undefined>;
  logger: Logger;
}

/** The version a preview token opens. */
export interface PreviewVersion {
  siteId: string;
  versionId: string;
  files: readonly ManifestEntry[];
  suspendedReason: string | null;
}

/** Where preview URLs live: `_` is never in an address label, so no site is ever at this root. */
export const PREVIEW_ROOT = '/sites/_preview/';
/** The host label of framable previews, `preview.<SITES_DOMAIN>`: a reserved label no site can claim. */
export const PREVIEW_LABEL = 'preview';

export interface SiteServerStats {
  sites: number;
  cache: { entries: number; bytes: number; maxBytes: number; hits: number; misses: number };
  /** CSP violation reports received since start (a page that tried something the policy refused). */
  cspReports: number;
}

export interface SiteServer {
  /** Answers the request and returns true when it is for a site; false leaves it to the application. */
  handle(req: IncomingMessage, res: ServerResponse): boolean;
  /** Loads every site and starts following changes. */
  start(): Promise<void>;
  /** Marks a site changed (null: every site) and resolves once the index holds what the source holds. */
  refresh(siteId?: string | null): Promise<void>;
  stats(): SiteServerStats;
  /** What the index holds for a site (operators' diagnostics and tests), or undefined. */
  lookup(
    siteId: string,
  ): { versionId: string | null; suspendedReason: string | null; files: number } | undefined;
  close(): Promise<void>;
}

/** Largest CSP report body read; browsers send a few hundred bytes. */
const CSP_REPORT_MAX_BYTES = 16 * 1024;
const SITES_PREFIX = '/sites/';

/** Where a request landed: a site (or none) and the site's root on this origin. */
interface Target {
  site: IndexedSite | undefined;
  /** '' on a site's own host; '/sites/<label>' on the application's host. */
  root: string;
  /** The request path below the root, without the query. */
  path: string;
  query: string;
  /** A preview URL's token: the site is looked up by it, not in the index. */
  previewToken?: string;
  /** A preview on the preview host: the application's origin may frame it (the builder's preview pane). */
  framable?: boolean;
  /** `www.<bound domain>`: the host the site is served on, where this request is redirected. */
  aliasOf?: string;
}

/** The host name a request asked for: lower-case, without port or trailing dot. */
function hostOf(req: IncomingMessage): string {
  const raw = req.headers.host;
  if (!raw) return '';
  let host = raw.toLowerCase();
  if (host.startsWith('[')) return host; // an IPv6 literal is never a site
  const colon = host.indexOf(':');
  if (colon >= 0) host = host.slice(0, colon);
  return host.endsWith('.') ? host.slice(0, -1) : host;
}

/** How a rendered page opens its content (services/src/builder/render/render-site.ts). */
const SITE_MAIN_OPEN = '<main id="main" class="wrap">';

export function createSiteServer(o: SiteServerOptions): SiteServer {
  const index = new SiteIndex();
  const cache = new BlobCache(o.blobs, o.cacheBytes);
  const refresher = new SiteIndexRefresher(index, o.source, (error) =>
    o.logger.error({ err: error }, 'site index: loading sites failed; serving what is known'),
  );
  const sitesSuffix = '.' + o.sitesDomain.toLowerCase();
  const operator = new URL(o.baseUrl).origin + '/';
  const blockedBy = `<${operator}>; rel="blocked-by"`;
  const hostHeaders = securityHeaders('');
  const previewHost = `${PREVIEW_LABEL}${sitesSuffix}`;
  const appOrigin = new URL(o.baseUrl).origin;
  /** The scheme sites are reached with: the instance's own (https in production, behind its proxy). */
  const aliasScheme = new URL(o.baseUrl).protocol;
  /** Answers the application's builder page may show in its preview pane (and only those). */
  const framed = new WeakSet<ServerResponse>();
  let cspReports = 0;

  /** The site and root a request is for, or undefined when it is the application's. */
  function targetOf(req: IncomingMessage): Target | undefined {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q >= 0 ? url.slice(0, q) : url;
    const query = q >= 0 ? url.slice(q) : '';
    const host = hostOf(req);
    // The preview host serves previews alone, framable by the application (`preview` is a reserved
    // label, so no site can be there): the pane shows a site's bytes on the sites' origin, not the app's.
    if (host === previewHost) {
      const preview = path.startsWith(PREVIEW_ROOT) ? previewTarget(path, query) : undefined;
      return preview ? { ...preview, framable: true } : { site: undefined, root: '', path, query };
    }
    if (host.endsWith(sitesSuffix) || host === o.sitesDomain) {
      const label = host.slice(0, -sitesSuffix.length);
      const site = label && !label.includes('.') ? index.bySiteLabel(label) : undefined;
      return { site, root: '', path, query };
    }
    const bound = index.byBoundDomain(host);
    if (bound) return { site: bound.kind === 'site' ? bound.site : undefined, root: '', path, query };
    // `www.` of a served domain is its alias (docs/builder.md#domains): redirected to the domain itself.
    const apex = host.startsWith('www.') ? index.byBoundDomain(host.slice(4)) : undefined;
    if (apex?.kind === 'site') return { site: apex.site, root: '', path, query, aliasOf: host.slice(4) };
    if (!path.startsWith(SITES_PREFIX)) return undefined;
    const slash = path.indexOf('/', SITES_PREFIX.length);
    const label = path.slice(SITES_PREFIX.length, slash < 0 ? undefined : slash);
    if (label === '_preview') return previewTarget(path, query);
    const site = label ? index.bySiteLabel(label) : undefined;
    return { site, root: SITES_PREFIX + label, path: slash < 0 ? '' : path.slice(slash), query };
  }

  /** `/sites/_preview/<token>/…`: the token and the path below it. */
  function previewTarget(path: string, query: string): Target {
    const slash = PREVIEW_ROOT.length - 1;
    const end = path.indexOf('/', slash + 1);
    const token = path.slice(slash + 1, end < 0 ? undefined : end);
    const root = PREVIEW_ROOT + token;
    return { site: undefined, root, path: end < 0 ? '' : path.slice(end), query, previewToken: token };
  }

  const isPreview = (root: string) => root.startsWith(PREVIEW_ROOT);

  function headersFor(root: string, res: ServerResponse): string[] {
    if (root === '') return hostHeaders;
    const headers = securityHeaders(root, framed.has(res) ? appOrigin : undefined);
    if (isPreview(root)) headers.push('X-Robots-Tag', 'noindex');
    return headers;
  }

  function sendPage(
    req: IncomingMessage,
    res: ServerResponse,
    root: string,
    status: number,
    body: Buffer,
    extra: string[] = [],
  ): void {
    res.writeHead(status, [
      ...headersFor(root, res),
      'Content-Type',
      'text/html; charset=utf-8',
      'Content-Length',
      String(body.length),
      'Cache-Control',
      'no-store',
      ...extra,
    ]);
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  function sendBytes(
    req: IncomingMessage,
    res: ServerResponse,
    root: string,
    status: number,
    entry: ManifestEntry,
    bytes: Buffer,
  ): void {
    const etag = etagOf(entry);
    const headers = [
      ...headersFor(root, res),
      'ETag',
      etag,
      'Cache-Control',
      status === 200 && !isPreview(root) ? cacheControlFor(entry, o.pageMaxAgeSeconds) : 'no-store',
    ];
    if (status === 200 && matchesIfNoneMatch(req.headers['if-none-match'], etag)) {
      res.writeHead(304, headers);
      res.end();
      return;
    }
    headers.push('Content-Type', entry.contentType, 'Content-Length', String(bytes.length));
    res.writeHead(status, headers);
    res.end(req.method === 'HEAD' ? undefined : bytes);
  }

  function sendFile(
    req: IncomingMessage,
    res: ServerResponse,
    root: string,
    status: number,
    entry: ManifestEntry,
  ): void {
    const held = cache.peek(entry.sha256);
    if (held) return sendBytes(req, res, root, status, entry, held);
    cache.get(entry.sha256).then(
      (bytes) => {
        if (bytes) return sendBytes(req, res, root, status, entry, bytes);
        o.logger.error(
          { sha256: entry.sha256, path: entry.path },
          'a published file is missing from the store',
        );
        sendPage(req, res, root, 500, SERVER_ERROR_PAGE);
      },
      (error: unknown) => {
        o.logger.error({ err: error, path: entry.path }, 'reading a published file failed');
        if (!res.headersSent) sendPage(req, res, root, 500, SERVER_ERROR_PAGE);
        else res.destroy();
      },
    );
  }

  function notAllowed(req: IncomingMessage, res: ServerResponse, root: string, allow: string): void {
    sendPage(req, res, root, 405, METHOD_NOT_ALLOWED_PAGE, ['Allow', allow]);
  }

  function receiveCspReport(req: IncomingMessage, res: ServerResponse, root: string): void {
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > CSP_REPORT_MAX_BYTES) {
        req.removeAllListeners('data');
        res.setHeader('Connection', 'close');
        sendPage(req, res, root, 413, TOO_LARGE_PAGE);
        req.resume();
      }
    });
    req.on('end', () => {
      if (res.headersSent) return;
      cspReports++;
      res.writeHead(204, [...headersFor(root, res), 'Cache-Control', 'no-store']);
      res.end();
    });
  }

  function serveSite(req: IncomingMessage, res: ServerResponse, t: Target): void {
    const { site, root, path, query } = t;
    if (!site) return sendPage(req, res, root, 404, NOT_FOUND_PAGE);
    if (t.aliasOf !== undefined) {
      const port = /:\d+$/.exec(req.headers.host ?? '')?.[0] ?? '';
      return redirect(res, root, `${aliasScheme}//${t.aliasOf}${port}${path || '/'}${query}`, 301);
    }
    if (site.suspendedReason !== null)
      return sendPage(req, res, root, 451, suspendedPage(site.suspendedReason, operator), [
        'Link',
        blockedBy,
      ]);
    // /sites/<label> → /sites/<label>/, so the pages' relative links resolve under the root.
    if (path === '') return redirect(res, root, `${root}/${query}`);
    const method = req.method;
    // The two addresses that take posts (forms, CSP reports) take nothing else; every other path is a file.
    const form = FORM_PATH.exec(path);
    const sent = FORM_SENT_PATH.exec(path);
    if (form || sent || path === CSP_REPORT_PATH) {
      if (sent ? method !== 'GET' && method !== 'HEAD' : method !== 'POST')
        return notAllowed(req, res, root, sent ? 'GET, HEAD' : 'POST');
      if (!form && !sent) return receiveCspReport(req, res, root);
      const forms = o.forms;
      if (!forms || isPreview(root)) return sendPage(req, res, root, 404, NOT_FOUND_PAGE);
      const target = {
        siteId: site.siteId,
        ownerAgentId: site.ownerAgentId,
        formId: (form ?? sent)![1]!,
        versionId: site.versionId,
      };
      void Promise.resolve(form ? forms.submit(req, res, target) : forms.sent(req, res, target)).catch(
        (error: unknown) => {
          o.logger.error({ err: error }, form ? 'form submission failed' : 'form thank-you page failed');
          if (!res.headersSent) sendPage(req, res, root, 500, SERVER_ERROR_PAGE);
        },
      );
      return;
    }
    if (method !== 'GET' && method !== 'HEAD') return notAllowed(req, res, root, 'GET, HEAD');
    const entry = site.files.get(path.endsWith('/') ? path + 'index.html' : path);
    if (entry) return sendFile(req, res, root, 200, entry);
    // A folder asked for without its slash: redirect, as static hosts do, so relative links work.
    if (!path.endsWith('/') && site.files.has(path + '/index.html'))
      return redirect(res, root, `${root}${path}/${query}`);
    const notFound = site.files.get('/404.html');
    if (notFound) return sendFile(req, res, root, 404, notFound);
    sendThemedNotFound(req, res, root, site.files.get('/index.html'));
  }

  /**
   * The 404 of a published site in its own frame (stylesheet, header, navigation, footer): the home page
   * with its content replaced. Its links are relative to the home page, and the 404 answers at any depth,
   * so they are made relative to the site's root path instead. Without a readable home page: the plain one.
   */
  function sendThemedNotFound(
    req: IncomingMessage,
    res: ServerResponse,
    root: string,
    home: ManifestEntry | undefined,
  ): void {
    const plain = () => sendPage(req, res, root, 404, NOT_FOUND_PAGE);
    if (!home) return plain();
    const framed = (bytes: Buffer | undefined) => {
      const text = bytes?.toString('utf8');
      const start = text?.indexOf(SITE_MAIN_OPEN) ?? -1;
      const end = text?.lastIndexOf('</main>') ?? -1;
      if (!text || start < 0 || end < start) return plain();
      const relink = (part: string) => part.replace(/(href|src|content)="\.\//g, `$1="${root}/`);
      const siteTitle = /<a class="site-title"[^>]*>([^<]*)<\/a>/.exec(text)?.[1] ?? '';
      const before = relink(text.slice(0, start))
        .replace(/ aria-current="page"/g, '')
        .replace(/<title>[^<]*<\/title>/, `<title>Page not found – ${siteTitle}</title>`)
        .replace('<head>', '<head>\n<meta name="robots" content="noindex">');
      const main = `${SITE_MAIN_OPEN}<h1>Page not found</h1>
<p>There is no page at this address. It may have moved, or the link may be mistyped.</p>
<p><a href="${root}/">Go to the home page</a></p></main>`;
      sendPage(req, res, root, 404, Buffer.from(before + main + relink(text.slice(end + '</main>'.length))));
    };
    const held = cache.peek(home.sha256);
    if (held) return framed(held);
    cache.get(home.sha256).then(framed, plain);
  }

  function redirect(res: ServerResponse, root: string, location: string, status = 308): void {
    res.writeHead(status, [
      ...headersFor(root, res),
      'Location',
      location,
      'Content-Length',
      '0',
      'Cache-Control',
      'no-store',
    ]);
    res.end();
  }

  function servePreview(req: IncomingMessage, res: ServerResponse, t: Target): void {
    const token = t.previewToken!;
    if (!o.previews || token === '') return sendPage(req, res, t.root, 404, NOT_FOUND_PAGE);
    o.previews(token).then(
      (v) => {
        const site: IndexedSite | undefined = v && {
          siteId: v.siteId,
          ownerAgentId: '',
          suspendedReason: v.suspendedReason,
          versionId: v.versionId,
          files: new Map(v.files.map((f) => [f.path, f])),
        };
        serveSite(req, res, { ...t, site });
      },
      (error: unknown) => {
        o.logger.error({ err: error }, 'opening a preview failed');
        if (!res.headersSent) sendPage(req, res, t.root, 500, SERVER_ERROR_PAGE);
      },
    );
  }

  return {
    handle(req, res) {
      const t = targetOf(req);
      if (!t) return false;
      if (t.previewToken !== undefined) {
        if (t.framable) framed.add(res);
        servePreview(req, res, t);
        return true;
      }
      try {
        serveSite(req, res, t);
      } catch (error) {
        o.logger.error({ err: error }, 'serving a site failed');
        if (!res.headersSent) sendPage(req, res, t.root, 500, SERVER_ERROR_PAGE);
      }
      return true;
    },
    start: () => refresher.start(),
    async refresh(siteId = null) {
      refresher.changed(siteId);
      await refresher.flush();
    },
    stats() {
      return {
        sites: index.size,
        cache: { ...cache.size, maxBytes: cache.maxBytes, hits: cache.hits, misses: cache.misses },
        cspReports,
      };
    },
    lookup(siteId) {
      const site = index.get(siteId);
      return (
        site && { versionId: site.versionId, suspendedReason: site.suspendedReason, files: site.files.size }
      );
    },
    close: () => refresher.close(),
  };
}
