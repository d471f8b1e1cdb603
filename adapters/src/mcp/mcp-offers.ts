// What the MCP server offers besides tools: resources, prompts, argument completion and logging.
// Registered on the request's server by createMcpServer; each read goes through the pipeline
// (mcp-reads.ts). docs/agent-access.md#resources-prompts-and-completions
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CompleteRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ReadResourceRequestSchema,
  type ServerCapabilities,
} from '@modelcontextprotocol/sdk/types.js';
import { complete } from './completions.js';
import type { McpReadContext } from './mcp-reads.js';
import { getPrompt, listPrompts } from './prompts.js';
import { listResources, readResource, resourceTemplates } from './resources.js';

/**
 * No `subscribe` and no `listChanged`: /api/mcp is stateless (a server per request, no stream the
 * server could notify on). `logging` is the SDK's own `logging/setLevel`; the server sends no log
 * messages, since a JSON answer carries no notifications.
 */
export const OFFERED_CAPABILITIES = {
  resources: { subscribe: false, listChanged: false },
  prompts: { listChanged: false },
  completions: {},
  logging: {},
} as const satisfies ServerCapabilities;

export function registerOffers(server: Server, ctx: McpReadContext): void {
  server.setRequestHandler(ListResourcesRequestSchema, (r) => listResources(ctx, r.params?.cursor));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: await resourceTemplates(ctx),
  }));
  server.setRequestHandler(ReadResourceRequestSchema, (r) => readResource(ctx, r.params.uri));
  server.setRequestHandler(ListPromptsRequestSchema, async () => ({ prompts: await listPrompts(ctx) }));
  server.setRequestHandler(GetPromptRequestSchema, (r) =>
    getPrompt(ctx, r.params.name, r.params.arguments ?? {}),
  );
  server.setRequestHandler(CompleteRequestSchema, (r) => complete(ctx, r.params));
}
