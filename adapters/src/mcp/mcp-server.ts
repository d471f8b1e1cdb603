// The MCP server for one request (the SDK's stateless pattern): tools/list and tools/call derived from
// the catalogue, for one already-resolved principal. Tool failures are `isError` results carrying the
// error code in structured content; protocol faults (unknown tool, bad params) are JSON-RPC errors.
import { isDomainError } from '@tributary/domain';
import {
  execute,
  getOperation,
  jsonSchemaOf,
  toolsFor,
  type Operation,
  type Principal,
  type Services,
} from '@tributary/services';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from 'pino';
import { idempotencyKeyOf, type ErrorCode as ErrorCodeOfOurs } from '../http/index.js';
import { OFFERED_CAPABILITIES, registerOffers } from './mcp-offers.js';

const SERVER_INFO = { name: 'tributary', version: '0.1.0' } as const;

interface McpRequestContext {
  services: Services;
  principal: Exclude<Principal, { kind: 'anonymous' }>;
  requestId?: string | undefined;
  /** The caller's User-Agent, recorded with each tool call (a token's "last used from"). */
  client?: string | undefined;
  /** `performance.now()` when the HTTP request arrived: provenance durations include auth. */
  startedAt: number;
  logger?: Logger | undefined;
  /** The JSON-RPC method asked for: only `initialize` and `tools/list` need the instance up front. */
  method?: string | undefined;
  /** The request's `Idempotency-Key` header as sent; the pipeline checks it when a tool is called. */
  idempotencyKey?: string | string[] | undefined;
}

// Built once: the SDK would otherwise compile a fresh Ajv per server, i.e. per request (we never elicit).
const jsonSchemaValidator = new AjvJsonSchemaValidator();

interface ToolSchemas {
  input: Tool['inputSchema'];
  /** What `structuredContent` holds (the result or the error), when the operation declares its output. */
  output?: Tool['outputSchema'];
  /** The output is not an object: `structuredContent` is `{ result }` (MCP wants an object there). */
  wrapped: boolean;
}

const toolSchemas = new Map<string, ToolSchemas>();

const isRecord = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

const withoutDialect = (schema: Record<string, unknown>) => {
  const { $schema: _dialect, ...rest } = schema;
  return rest;
};

/**
 * A failed call's `structuredContent` (see toolError). Part of every output schema: the official SDK's
 * client (1.x) checks an `isError` result against the output schema too, and would otherwise answer a
 * schema mismatch instead of the error.
 */
const ERROR_CONTENT = {
  type: 'object',
  properties: {
    error: {
      type: 'object',
      properties: { code: { type: 'string' }, message: { type: 'string' } },
      required: ['code', 'message'],
    },
  },
  required: ['error'],
  additionalProperties: false,
} as const;

/**
 * What `structuredContent` holds: the result (as `{ result }` when it is not an object: MCP wants an
 * object), or the error. zod's `$defs` move to the top, where its `#/$defs/…` refs point.
 */
function outputSchemaOf(output: Record<string, unknown>, wrapped: boolean): Tool['outputSchema'] {
  const { $defs, ...result } = output;
  const answer = wrapped
    ? { type: 'object', properties: { result }, required: ['result'], additionalProperties: false }
    : result;
  return {
    type: 'object',
    anyOf: [answer, ERROR_CONTENT],
    ...($defs !== undefined && { $defs }),
  } as Tool['outputSchema'];
}

/** The tool's input and output as JSON Schema (draft 2020-12, MCP's default dialect), derived once from zod. */
function schemasOf(op: Operation<unknown, unknown>): ToolSchemas {
  let schemas = toolSchemas.get(op.name);
  if (!schemas) {
    const input = { ...withoutDialect(jsonSchemaOf(op.input)), type: 'object' } as Tool['inputSchema'];
    const output = op.output && withoutDialect(jsonSchemaOf(op.output, 'output'));
    const wrapped = output !== undefined && output.type !== 'object';
    schemas = { input, wrapped, ...(output && { output: outputSchemaOf(output, wrapped) }) };
    toolSchemas.set(op.name, schemas);
  }
  return schemas;
}

/**
 * A result as text and as `structuredContent`, which must match the `outputSchema` served: a result
 * that does not is our bug, logged, and sent as it is rather than failing a call whose effect happened.
 */
function answerOf(op: Operation<unknown, unknown>, result: unknown, logger?: Logger): CallToolResult {
  if (op.output && !op.output.safeParse(result).success)
    logger?.error({ tool: op.name }, 'tool result does not match its output schema');
  const wrap = op.output ? schemasOf(op).wrapped : !isRecord(result);
  return {
    content: [{ type: 'text', text: JSON.stringify(result) }],
    structuredContent: (wrap ? { result } : result) as Record<string, unknown>,
  };
}

function toolDescriptor(op: Operation<unknown, unknown>): Tool {
  const readOnly = op.kind === 'query';
  return {
    name: op.name,
    title: op.title,
    description: `${op.description} Needs scope ${op.scopes.join(' ')} for tokens.`,
    inputSchema: schemasOf(op).input,
    ...(op.output && { outputSchema: schemasOf(op).output }),
    annotations: {
      title: op.title,
      readOnlyHint: readOnly,
      destructiveHint: false,
      idempotentHint: readOnly,
      openWorldHint: false,
    },
  };
}

export function toolError(error: unknown, logger?: Logger): CallToolResult {
  if (isDomainError(error)) {
    return {
      isError: true,
      content: [{ type: 'text', text: `${error.code}: ${error.message}` }],
      structuredContent: { error: { code: error.code, message: error.message, ...(error.details ?? {}) } },
    };
  }
  logger?.error({ err: error }, 'tool failed');
  return {
    isError: true,
    content: [{ type: 'text', text: 'server.internal: something went wrong on our side' }],
    structuredContent: {
      error: {
        code: 'server.internal' satisfies ErrorCodeOfOurs,
        message: 'something went wrong on our side',
      },
    },
  };
}

export async function createMcpServer(ctx: McpRequestContext): Promise<Server> {
  const { services, principal } = ctx;
  // The instance is named as its primary agent is named now: the person of a person instance (renamed
  // at the first sign-up), or the group, locale or region as its operators last renamed it.
  const { instance, agent: primary } =
    ctx.method === 'initialize' || ctx.method === 'tools/list'
      ? await services.instance.read.withAgent(null)
      : { instance: null, agent: null };
  const name = primary?.name ?? instance?.name;
  const server = new Server(
    { ...SERVER_INFO, title: name ?? 'Tributary' },
    {
      capabilities: { tools: { listChanged: false }, ...OFFERED_CAPABILITIES },
      jsonSchemaValidator,
      instructions:
        `Tributary instance "${name ?? ''}" (${instance?.role ?? 'starting'}). Tools act as you, or as the ` +
        'persona or agent named by `targetAgentId` when you control it. Every call is written to a provenance log ' +
        '(see svc.audit.recent). A failed tool returns isError with the error code in structuredContent.error.code.',
    },
  );

  server.setRequestHandler(ListToolsRequestSchema, async () => {
    const tools = toolsFor(principal, {
      instance: instance ?? { controllers: [] },
      now: services.clock.now(),
      legacyUnscopedSunset: services.config.legacyUnscopedSunset,
    });
    return { tools: tools.map(toolDescriptor) };
  });

  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const op = getOperation(request.params.name);
    // Operations that are not MCP tools (sign-up, token issue) do not exist here.
    if (!op || op.enabledFor.length === 0 || op.public)
      throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`, {
        code: 'tool.not_found' satisfies ErrorCodeOfOurs,
      });
    try {
      const idempotencyKey = idempotencyKeyOf({ headers: { 'idempotency-key': ctx.idempotencyKey } });
      const { result } = await execute(services, op, request.params.arguments ?? {}, principal, 'mcp', {
        provenance: { startedAt: ctx.startedAt, requestId: ctx.requestId, client: ctx.client },
        idempotencyKey,
      });
      return answerOf(op, result, ctx.logger);
    } catch (e) {
      return toolError(e, ctx.logger);
    }
  });
  registerOffers(server, ctx);
  return server;
}
