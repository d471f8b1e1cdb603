// MCP prompts for the common jobs. Each names the catalogue tools it has the model use and is offered
// only to a caller who may call all of them (the tools/list check); what a prompt embeds it reads as a
// resource, through the pipeline. docs/agent-access.md#resources-prompts-and-completions
import {
  ErrorCode,
  type GetPromptResult,
  type Prompt,
  type PromptMessage,
} from '@modelcontextprotocol/sdk/types.js';
import { rpcError, usable, type McpReadContext } from './mcp-reads.js';
import { readResource } from './resources.js';

interface PromptKind extends Prompt {
  arguments: NonNullable<Prompt['arguments']>;
  /** The tools the prompt has the model call: a caller without one of them is not offered it. */
  uses: readonly string[];
  messages(ctx: McpReadContext, args: Record<string, string>): Promise<PromptMessage[]>;
}

/** The longest argument text a prompt takes (a topic, a focus). */
const MAX_ARGUMENT_LENGTH = 500;

const user = (text: string): PromptMessage => ({ role: 'user', content: { type: 'text', text } });

/** A resource the prompt hands the model as it stands now, read as the caller. */
async function embedded(ctx: McpReadContext, uri: string): Promise<PromptMessage> {
  const { contents } = await readResource(ctx, uri);
  return { role: 'user', content: { type: 'resource', resource: contents[0]! } };
}

export const PROMPTS: readonly PromptKind[] = [
  {
    name: 'build_site',
    title: 'Build a site about…',
    description:
      'Write the pages of one of your sites about a topic, preview them, and publish once you say so.',
    arguments: [
      { name: 'topic', description: 'what the site is about', required: true },
      { name: 'siteId', description: 'which of your sites (your default site if left out)', required: false },
    ],
    uses: ['svc.builder.read_draft', 'svc.builder.save_draft', 'svc.builder.preview', 'svc.builder.publish'],
    async messages(_ctx, args) {
      const site = args.siteId ? `my site ${args.siteId}` : 'my default site';
      const siteArg = args.siteId
        ? ` with siteId "${args.siteId}" (also the resource tributary://sites/${args.siteId}/draft)`
        : ' (without a siteId: it reads my default site)';
      return [
        user(
          `Build ${site} about: ${args.topic}\n\n` +
            `1. Read the current draft with svc.builder.read_draft${siteArg}.\n` +
            '2. Write a home page at "/" and the few pages the topic needs, in plain words, as typed blocks; ' +
            'save them with svc.builder.save_draft, giving back the revision you read.\n' +
            '3. Render it with svc.builder.preview and show me the preview URL and what each page says.\n' +
            '4. Publish with svc.builder.publish only after I have said yes to the preview.',
        ),
      ];
    },
  },
  {
    name: 'summarize_agent_activity',
    title: 'Summarise what my agents did',
    description:
      'A plain summary of the recent tool calls made for you (the provenance log) and of what the assistant finished (the vault).',
    arguments: [
      {
        name: 'focus',
        description: 'what to look at in particular (a site, a kind of change, a day)',
        required: false,
      },
    ],
    uses: ['svc.audit.recent', 'svc.assistant.read_vault'],
    async messages(ctx, args) {
      return [
        await embedded(ctx, 'tributary://vault'),
        user(
          'Summarise what my agents did for me. The vault document above lists what the assistant finished; ' +
            'call svc.audit.recent (limit 100) for the recent tool calls made with my tokens and sessions. ' +
            'Group them by what they changed, say which failed or were refused and why (the error code), ' +
            'and point out anything I did not ask for.' +
            (args.focus ? `\n\nLook in particular at: ${args.focus}` : ''),
        ),
      ];
    },
  },
  {
    name: 'continue_thread',
    title: 'Pick up an assistant thread',
    description: 'One of your assistant threads as it stands, with what is left to do in it.',
    arguments: [{ name: 'threadId', description: 'one of your assistant threads', required: true }],
    uses: ['svc.assistant.read_thread'],
    async messages(ctx, args) {
      return [
        await embedded(ctx, `tributary://threads/${encodeURIComponent(args.threadId!)}`),
        user(
          'Above is one of my conversations with the assistant. Say in a few lines where it stands: what I ' +
            'asked, which plan steps ran and which are still waiting for my confirmation, and what failed. ' +
            'Then suggest the next step, without running anything.',
        ),
      ];
    },
  },
];

const invalid = (message: string) => rpcError(ErrorCode.InvalidParams, message, { code: 'input.invalid' });

/** The prompts the caller may use. */
export async function listPrompts(ctx: McpReadContext): Promise<Prompt[]> {
  const can = await usable(
    ctx,
    PROMPTS.flatMap((p) => p.uses),
  );
  return PROMPTS.filter((p) => p.uses.every((t) => can.has(t))).map(
    ({ uses: _u, messages: _m, ...prompt }) => prompt,
  );
}

export async function getPrompt(
  ctx: McpReadContext,
  name: string,
  args: Record<string, string> = {},
): Promise<GetPromptResult> {
  const prompt = PROMPTS.find((p) => p.name === name);
  // A prompt the caller is not offered is as unknown as one that does not exist.
  const can = prompt ? await usable(ctx, prompt.uses) : new Set<string>();
  if (!prompt || !prompt.uses.every((t) => can.has(t)))
    throw rpcError(ErrorCode.InvalidParams, `no prompt ${name}`, { code: 'prompt.not_found' });
  const known = new Set(prompt.arguments.map((a) => a.name));
  for (const key of Object.keys(args)) if (!known.has(key)) throw invalid(`${name} takes no argument ${key}`);
  for (const a of prompt.arguments) {
    const v = args[a.name];
    if (a.required && !v?.trim()) throw invalid(`${name} needs ${a.name}`);
    if (v !== undefined && v.length > MAX_ARGUMENT_LENGTH)
      throw invalid(`${a.name} is longer than ${MAX_ARGUMENT_LENGTH} characters`);
  }
  return {
    description: prompt.description,
    messages: await prompt.messages(ctx, args),
  };
}
