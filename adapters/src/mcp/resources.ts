// MCP resources: the caller's sites (settings and publication, the draft, one page of it, the versions),
// the vault document and the assistant threads, as `tributary://` URIs. Each one is a catalogue query
// read through the pipeline (mcp-reads.ts), so a resource shows exactly what its tool would answer to
// the same caller, and nothing a token without the tool's scope could not see.
// docs/agent-access.md#resources-prompts-and-completions
import type { Resource, ResourceTemplate } from '@modelcontextprotocol/sdk/types.js';
import { notFoundError, MCP_READ_ERRORS, readThrough, usable, type McpReadContext } from './mcp-reads.js';

export const RESOURCE_SCHEME = 'tributary:';

/** One kind of resource: its URI template, the query behind it, and how a read answers. */
interface ResourceKind {
  template: ResourceTemplate & { uriTemplate: string };
  /** The catalogue query that reads it (and that the caller must be able to run). */
  operation: string;
  /** The template's variables from a URI of this kind, or null when the URI is not of it. */
  match(url: URL): Record<string, string | undefined> | null;
  read(
    ctx: McpReadContext,
    vars: Record<string, string | undefined>,
  ): Promise<{ mimeType: string; text: string }>;
}

const JSON_TYPE = 'application/json';
const asJson = (v: unknown) => ({ mimeType: JSON_TYPE, text: JSON.stringify(v, null, 2) });

/** `tributary://sites/<id>/<rest>`: the path segments after the host (URL keeps the host apart). */
const segments = (url: URL) => url.pathname.split('/').slice(1).map(decodeURIComponent);

const siteMatch =
  (rest: string | undefined, query?: string) =>
  (url: URL): Record<string, string | undefined> | null => {
    if (url.host !== 'sites') return null;
    const s = segments(url);
    const ok = rest === undefined ? s.length === 1 : s.length === 2 && s[1] === rest;
    if (!ok || !s[0]) return null;
    if (url.search && !query) return null;
    return { siteId: s[0], ...(query && { [query]: url.searchParams.get(query) ?? undefined }) };
  };

interface DraftAnswer {
  siteId: string;
  revision: number;
  document: { pages: { path: string; title: string }[] };
  updatedAt: string;
}

export const RESOURCE_KINDS: readonly ResourceKind[] = [
  {
    template: {
      uriTemplate: 'tributary://vault',
      name: 'vault',
      title: 'Vault document',
      description:
        'The vault document of the agent you act as: Markdown, one section per plan step the assistant finished (svc.assistant.read_vault).',
      mimeType: 'text/markdown',
    },
    operation: 'svc.assistant.read_vault',
    match: (url) =>
      url.host === 'vault' && (url.pathname === '' || url.pathname === '/') && !url.search ? {} : null,
    async read(ctx) {
      const r = await readThrough<{ markdown: string }>(ctx, 'svc.assistant.read_vault', {});
      return { mimeType: 'text/markdown', text: r.markdown };
    },
  },
  {
    template: {
      uriTemplate: 'tributary://sites/{siteId}',
      name: 'site',
      title: 'Site',
      description:
        'One of your sites: its settings, address, publication (the version it serves) and newest versions (svc.builder.read_site).',
      mimeType: JSON_TYPE,
    },
    operation: 'svc.builder.read_site',
    match: siteMatch(undefined),
    read: async (ctx, v) => asJson(await readThrough(ctx, 'svc.builder.read_site', { siteId: v.siteId })),
  },
  {
    template: {
      uriTemplate: 'tributary://sites/{siteId}/draft',
      name: 'site-draft',
      title: 'Site draft',
      description:
        "A site's draft: every page with its blocks, the navigation and footer, and the revision save_draft must be given back (svc.builder.read_draft).",
      mimeType: JSON_TYPE,
    },
    operation: 'svc.builder.read_draft',
    match: siteMatch('draft'),
    read: async (ctx, v) => asJson(await readThrough(ctx, 'svc.builder.read_draft', { siteId: v.siteId })),
  },
  {
    template: {
      uriTemplate: 'tributary://sites/{siteId}/page{?path}',
      name: 'site-page',
      title: 'Page of a site draft',
      description:
        'One page of a site\'s draft, by its path (default "/"): its title and blocks, with the draft\'s revision (svc.builder.read_draft).',
      mimeType: JSON_TYPE,
    },
    operation: 'svc.builder.read_draft',
    match: siteMatch('page', 'path'),
    async read(ctx, v) {
      const draft = await readThrough<DraftAnswer>(ctx, 'svc.builder.read_draft', { siteId: v.siteId });
      const path = v.path ?? '/';
      const page = draft.document.pages.find((p) => p.path === path);
      if (!page)
        throw notFoundError(
          'resource.not_found',
          `the draft has no page at ${path}`,
          MCP_READ_ERRORS.resourceNotFound,
        );
      return asJson({ siteId: draft.siteId, revision: draft.revision, updatedAt: draft.updatedAt, page });
    },
  },
  {
    template: {
      uriTemplate: 'tributary://sites/{siteId}/versions{?before}',
      name: 'site-versions',
      title: 'Site versions',
      description:
        "A site's publication and its versions, newest first, 100 at a time: `before` is the previous page's nextBefore (svc.builder.read_site).",
      mimeType: JSON_TYPE,
    },
    operation: 'svc.builder.read_site',
    match: siteMatch('versions', 'before'),
    async read(ctx, v) {
      const r = await readThrough<Record<string, unknown>>(ctx, 'svc.builder.read_site', {
        siteId: v.siteId,
        limit: 100,
        ...(v.before !== undefined && { before: v.before }),
      });
      return asJson({
        siteId: v.siteId,
        publication: r.publication,
        versions: r.versions,
        nextBefore: r.nextBefore,
      });
    },
  },
  {
    template: {
      uriTemplate: 'tributary://threads/{threadId}',
      name: 'assistant-thread',
      title: 'Assistant thread',
      description:
        "One of your conversations with the assistant: its messages in order, each with the plan it proposes and the plan's status (svc.assistant.read_thread).",
      mimeType: JSON_TYPE,
    },
    operation: 'svc.assistant.read_thread',
    match(url) {
      const s = segments(url);
      return url.host === 'threads' && s.length === 1 && s[0] && !url.search ? { threadId: s[0] } : null;
    },
    read: async (ctx, v) =>
      asJson(await readThrough(ctx, 'svc.assistant.read_thread', { threadId: v.threadId })),
  },
];

/** The queries resources/list runs besides the kinds' own. */
const LISTING = { sites: 'svc.builder.list_sites', threads: 'svc.assistant.list_threads' } as const;
/** Threads per resources/list page (list_threads' largest page). */
const THREADS_PER_PAGE = 100;

export async function resourceTemplates(ctx: McpReadContext): Promise<ResourceTemplate[]> {
  const can = await usable(
    ctx,
    RESOURCE_KINDS.map((k) => k.operation),
  );
  // The vault has one URI: it is a resource, not a template.
  return RESOURCE_KINDS.filter((k) => can.has(k.operation) && k.template.uriTemplate.includes('{')).map(
    (k) => k.template,
  );
}

interface SiteItem {
  siteId: string;
  title: string;
  description: string;
  publishedVersionId: string | null;
  updatedAt: string;
}
interface ThreadItem {
  threadId: string;
  title?: string | null;
  updatedAt?: string;
}

/**
 * The caller's resources: the vault, each site (with its draft and versions) and each thread, for
 * what the caller may read. `cursor` pages the threads (list_threads' `nextBefore`).
 */
export async function listResources(
  ctx: McpReadContext,
  cursor: string | undefined,
): Promise<{ resources: Resource[]; nextCursor?: string }> {
  const can = await usable(ctx, [...RESOURCE_KINDS.map((k) => k.operation), ...Object.values(LISTING)]);
  const resources: Resource[] = [];
  if (cursor === undefined) {
    if (can.has('svc.assistant.read_vault'))
      resources.push({
        uri: 'tributary://vault',
        name: 'vault',
        title: 'Vault document',
        mimeType: 'text/markdown',
        description: 'What the assistant did for the agent you act as, step by step.',
      });
    if (can.has(LISTING.sites) && can.has('svc.builder.read_site')) {
      const { sites } = await readThrough<{ sites: SiteItem[] }>(ctx, LISTING.sites, {});
      for (const s of sites) {
        const base = `tributary://sites/${s.siteId}`;
        resources.push(
          {
            uri: base,
            name: `site ${s.title}`,
            title: s.title,
            mimeType: JSON_TYPE,
            description: s.description || 'A site of yours',
          },
          {
            uri: `${base}/draft`,
            name: `draft of ${s.title}`,
            title: `${s.title}: draft`,
            mimeType: JSON_TYPE,
          },
          {
            uri: `${base}/versions`,
            name: `versions of ${s.title}`,
            title: `${s.title}: versions`,
            mimeType: JSON_TYPE,
            description: s.publishedVersionId ? `Serves version ${s.publishedVersionId}` : 'Not published',
          },
        );
      }
    }
  }
  if (!can.has(LISTING.threads) || !can.has('svc.assistant.read_thread')) return { resources };
  const page = await readThrough<{ threads: ThreadItem[]; nextBefore: string | null }>(ctx, LISTING.threads, {
    limit: THREADS_PER_PAGE,
    ...(cursor !== undefined && { before: cursor }),
  });
  for (const t of page.threads)
    resources.push({
      uri: `tributary://threads/${encodeURIComponent(t.threadId)}`,
      name: `thread ${t.title || t.threadId}`,
      title: t.title || 'Assistant thread',
      mimeType: JSON_TYPE,
    });
  return { resources, ...(page.nextBefore && { nextCursor: page.nextBefore }) };
}

/** resources/read: the URI's kind, read as the caller; an unknown URI is -32002. */
export async function readResource(ctx: McpReadContext, uri: string) {
  let url: URL | null = null;
  try {
    url = new URL(uri);
  } catch {
    url = null;
  }
  for (const kind of url?.protocol === RESOURCE_SCHEME ? RESOURCE_KINDS : []) {
    const vars = kind.match(url!);
    if (!vars) continue;
    const { mimeType, text } = await kind.read(ctx, vars);
    return { contents: [{ uri, mimeType, text }] };
  }
  throw notFoundError('resource.not_found', `no resource at ${uri}`, MCP_READ_ERRORS.resourceNotFound);
}
