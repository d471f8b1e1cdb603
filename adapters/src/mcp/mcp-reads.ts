// What resources, prompts and completions read, they read by running catalogue query operations
// through the pipeline (`execute`), exactly as `tools/call` runs them: the same access checks (the
// credential kind, the token's scopes, the acting agent's ownership) and one provenance entry per read.
// docs/agent-access.md#resources-prompts-and-completions
import { isDomainError, type DomainError } from '@tributary/domain';
import { execute, getOperation, toolsFor, type Principal, type Services } from '@tributary/services';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from 'pino';
import type { ErrorCode as ErrorCodeOfOurs } from '../http/index.js';

export interface McpReadContext {
  services: Services;
  principal: Exclude<Principal, { kind: 'anonymous' }>;
  requestId?: string | undefined;
  client?: string | undefined;
  startedAt: number;
  logger?: Logger | undefined;
}

/** JSON-RPC codes of a refused read (MCP names -32002 for an unknown resource). */
export const MCP_READ_ERRORS = {
  resourceNotFound: -32002,
  /** Implementation-defined (-32000…-32099): the caller may not read this; `data.code` says why. */
  forbidden: -32003,
} as const;

/** Runs the catalogue query `name` as the caller, recorded in provenance like a tool call. */
export async function readThrough<T = Record<string, unknown>>(
  ctx: McpReadContext,
  name: string,
  input: Record<string, unknown>,
): Promise<T> {
  const op = getOperation(name);
  if (!op || op.kind !== 'query') throw new Error(`${name} is not a catalogue query`);
  try {
    const { result } = await execute(ctx.services, op, input, ctx.principal, 'mcp', {
      provenance: { startedAt: ctx.startedAt, requestId: ctx.requestId, client: ctx.client },
    });
    return result as T;
  } catch (e) {
    throw asMcpError(e, ctx.logger);
  }
}

/** The catalogue operations among `names` that the caller may run over MCP (the tools/list check). */
export async function usable(ctx: McpReadContext, names: readonly string[]): Promise<Set<string>> {
  const { instance } = await ctx.services.instance.read.withAgent(null);
  const allowed = toolsFor(ctx.principal, {
    instance: instance ?? { controllers: [] },
    now: ctx.services.clock.now(),
    legacyUnscopedSunset: ctx.services.config.legacyUnscopedSunset,
  }).map((op) => op.name);
  return new Set(allowed.filter((n) => names.includes(n)));
}

/** A domain refusal as a JSON-RPC error carrying our stable code in `data.code`. */
export function asMcpError(e: unknown, logger?: Logger): McpError {
  if (e instanceof McpError) return e;
  if (!isDomainError(e)) {
    logger?.error({ err: e }, 'mcp read failed');
    return rpcError(ErrorCode.InternalError, 'something went wrong on our side', {
      code: 'server.internal' satisfies ErrorCodeOfOurs,
    });
  }
  const data = { code: e.code, ...(e.details ?? {}) };
  return rpcError(jsonRpcCodeOf(e), e.message, data as { code: ErrorCodeOfOurs });
}

function jsonRpcCodeOf(e: DomainError): number {
  switch (e.kind) {
    case 'not_found':
      return MCP_READ_ERRORS.resourceNotFound;
    case 'invalid':
      return ErrorCode.InvalidParams;
    case 'forbidden':
    case 'unauthenticated':
      return MCP_READ_ERRORS.forbidden;
    default:
      return ErrorCode.InternalError;
  }
}

/**
 * A JSON-RPC error whose message is ours alone: McpError prefixes "MCP error <code>: ", which the SDK's
 * client adds again on its side.
 */
export function rpcError(
  jsonRpc: number,
  message: string,
  data: { code: ErrorCodeOfOurs; [k: string]: unknown },
) {
  const e = new McpError(jsonRpc, message, data);
  e.message = message;
  return e;
}

/** A refusal of our own making (an unknown URI, prompt or template): `data.code` is stable. */
export const notFoundError = (code: ErrorCodeOfOurs, message: string, jsonRpc: number) =>
  rpcError(jsonRpc, message, { code });
