// Scope step-up (MCP authorization, "Scope challenge handling"; RFC 6750 §3.1): a tool call that an
// OAuth access token lacks a scope for is answered HTTP 403 with `WWW-Authenticate: Bearer
// error="insufficient_scope", scope="…"`, so the client can send its person through consent again with
// the larger scope and retry. Only an OAuth client can do that; a token a person issued directly gets the
// tool error instead (docs/agent-access.md#errors), which a model can read and pass on.
import { isDomainError } from '@tributary/domain';
import { accessDenial, execute, getOperation, type Principal, type Services } from '@tributary/services';
import { CallToolRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Response } from 'express';
import type { Logger } from 'pino';
import { JSON_RPC } from './json-rpc-error.js';
import { toolError } from './mcp-server.js';

interface ChallengeContext {
  services: Services;
  principal: Exclude<Principal, { kind: 'anonymous' }>;
  resourceMetadata: string;
  startedAt: number;
  requestId?: string | undefined;
  client?: string | undefined;
  idempotencyKey?: string | undefined;
  logger?: Logger | undefined;
}

/**
 * Answers a `tools/call` that needs the step-up challenge, and says so (true); false leaves the message to
 * the MCP server. The refused call goes through the pipeline like any other, so it is recorded in the
 * provenance log and counted exactly once.
 */
export async function answerScopeChallenge(
  ctx: ChallengeContext,
  body: unknown,
  res: Response,
): Promise<boolean> {
  const { principal, services } = ctx;
  if (principal.kind !== 'token') return false;
  const call = CallToolRequestSchema.safeParse(body);
  if (!call.success) return false;
  const op = getOperation(call.data.params.name);
  if (!op || op.enabledFor.length === 0 || op.public) return false;
  // The scope check does not depend on the instance (operator-only is checked after it).
  const denial = accessDenial(op, principal, 'mcp', {
    instance: { controllers: [] },
    now: services.clock.now(),
    legacyUnscopedSunset: services.config.legacyUnscopedSunset,
  });
  if (denial?.code !== 'auth.insufficient_scope') return false;
  if ((await services.oauth.read.oauthAccessTokenClient(principal.jti)) === null) return false;

  const id = (body as { id: string | number }).id;
  let result: CallToolResult;
  try {
    const ran = await execute(services, op, call.data.params.arguments ?? {}, principal, 'mcp', {
      provenance: { startedAt: ctx.startedAt, requestId: ctx.requestId, client: ctx.client },
      idempotencyKey: ctx.idempotencyKey,
    });
    // Not expected (the scope was missing a moment ago), but a call that ran is answered as such.
    result = { content: [{ type: 'text', text: JSON.stringify(ran.result) }] };
  } catch (e) {
    if (isDomainError(e) && e.code === 'auth.insufficient_scope') {
      const missing = (e.details?.missing as string[] | undefined) ?? [];
      // What the call needs: the token's scopes and the missing ones, so a new grant loses nothing.
      const scope = [...new Set([...principal.scopes, ...missing])].sort().join(' ');
      res.setHeader(
        'WWW-Authenticate',
        `Bearer error="insufficient_scope", scope="${scope}", resource_metadata="${ctx.resourceMetadata}", ` +
          `error_description="${op.name} needs ${missing.join(' ')}"`,
      );
      res.status(403).json({
        jsonrpc: '2.0',
        id,
        error: {
          code: JSON_RPC.forbidden,
          message: `${e.code}: ${e.message}`,
          data: { code: e.code, missing, tool: op.name, scope },
        },
      });
      return true;
    }
    result = toolError(e, ctx.logger);
  }
  res.status(200).json({ jsonrpc: '2.0', id, result });
  return true;
}
