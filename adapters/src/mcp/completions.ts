// completion/complete: the values an id argument can take, from the caller's own objects only (read
// through the pipeline as the list tools read them: list_sites, list_threads, read_draft, read_site).
// docs/agent-access.md#resources-prompts-and-completions
import { ErrorCode, type CompleteRequest, type CompleteResult } from '@modelcontextprotocol/sdk/types.js';
import { readThrough, rpcError, usable, type McpReadContext } from './mcp-reads.js';
import { PROMPTS } from './prompts.js';
import { RESOURCE_KINDS } from './resources.js';

/** The protocol's largest completion answer. */
const MAX_VALUES = 100;

const none: CompleteResult = { completion: { values: [], total: 0, hasMore: false } };

type Candidates = (
  ctx: McpReadContext,
  args: Record<string, string>,
) => Promise<{ value: string; label: string }[]>;

/** Per argument name: its candidates, and the query the caller must be able to run to get them. */
const ARGUMENTS: Record<string, { operation: string; candidates: Candidates }> = {
  siteId: {
    operation: 'svc.builder.list_sites',
    async candidates(ctx) {
      const { sites } = await readThrough<{ sites: { siteId: string; title: string }[] }>(
        ctx,
        'svc.builder.list_sites',
        {},
      );
      return sites.map((s) => ({ value: s.siteId, label: s.title }));
    },
  },
  threadId: {
    operation: 'svc.assistant.list_threads',
    async candidates(ctx) {
      const { threads } = await readThrough<{ threads: { threadId: string; title: string }[] }>(
        ctx,
        'svc.assistant.list_threads',
        { limit: MAX_VALUES },
      );
      return threads.map((t) => ({ value: t.threadId, label: t.title }));
    },
  },
  // A page path of the site named by the `siteId` already given (the default site otherwise).
  path: {
    operation: 'svc.builder.read_draft',
    async candidates(ctx, args) {
      const draft = await readThrough<{ document: { pages: { path: string; title: string }[] } }>(
        ctx,
        'svc.builder.read_draft',
        args.siteId ? { siteId: args.siteId } : {},
      );
      return draft.document.pages.map((p) => ({ value: p.path, label: p.title }));
    },
  },
  // A version id of the site named by `siteId`: the `before` of a versions page.
  before: {
    operation: 'svc.builder.read_site',
    async candidates(ctx, args) {
      if (!args.siteId) return [];
      const r = await readThrough<{ versions: { versionId: string }[] }>(ctx, 'svc.builder.read_site', {
        siteId: args.siteId,
        limit: MAX_VALUES,
      });
      return r.versions.map((v) => ({ value: v.versionId, label: v.versionId }));
    },
  },
};

/** The arguments a reference has, or null when it names nothing here (-32602, as the SDK's McpServer). */
function argumentsOf(ref: CompleteRequest['params']['ref']): readonly string[] | null {
  if (ref.type === 'ref/prompt')
    return PROMPTS.find((p) => p.name === ref.name)?.arguments.map((a) => a.name) ?? null;
  const kind = RESOURCE_KINDS.find((k) => k.template.uriTemplate === ref.uri);
  return kind ? [...kind.template.uriTemplate.matchAll(/\{\??(\w+)\}/g)].map((m) => m[1]!) : null;
}

export async function complete(
  ctx: McpReadContext,
  params: CompleteRequest['params'],
): Promise<CompleteResult> {
  const names = argumentsOf(params.ref);
  if (!names)
    throw rpcError(
      ErrorCode.InvalidParams,
      params.ref.type === 'ref/prompt'
        ? `no prompt ${params.ref.name}`
        : `no resource template ${params.ref.uri}`,
      { code: params.ref.type === 'ref/prompt' ? 'prompt.not_found' : 'resource.not_found' },
    );
  const arg = ARGUMENTS[params.argument.name];
  if (!names.includes(params.argument.name) || !arg) return none;
  // Without the query behind them there is nothing to offer, and nothing is read (or recorded).
  if (!(await usable(ctx, [arg.operation])).has(arg.operation)) return none;
  const typed = params.argument.value.toLowerCase();
  const matches = (await arg.candidates(ctx, params.context?.arguments ?? {}))
    .filter((c) => c.value.toLowerCase().startsWith(typed) || c.label.toLowerCase().includes(typed))
    .map((c) => c.value);
  return {
    completion: {
      values: matches.slice(0, MAX_VALUES),
      total: matches.length,
      hasMore: matches.length > MAX_VALUES,
    },
  };
}
