// /api/mcp: the Streamable HTTP transport of the official SDK, stateless (a server and a transport per
// request, `sessionIdGenerator: undefined`), JSON responses, no server-initiated stream (GET → 405).
// In front of it, in order: Host and Origin checks against BASE_URL (DNS rebinding), CORS, the
// principal (401 with the protected-resource metadata when there is none), the body (size, a single
// JSON-RPC message: no batches).
import { DEFAULT_OAUTH_SCOPES, type Services } from '@tributary/services';
import { hostHeaderValidation } from '@modelcontextprotocol/sdk/server/middleware/hostHeaderValidation.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import { Router, type RequestHandler, type Response } from 'express';
import { performance } from 'node:perf_hooks';
import {
  BAD_BYTES_TYPE,
  idempotencyKeyOf,
  jsonBodyParser,
  type SessionCookieOptions,
} from '../http/index.js';
import { JSON_RPC, sendJsonRpcError } from './json-rpc-error.js';
import { resolveMcpPrincipal, type StaticToken } from './mcp-principal.js';
import { createMcpServer } from './mcp-server.js';
import { answerScopeChallenge } from './scope-challenge.js';

interface McpRouteOptions {
  services: Services;
  baseUrl: string;
  cookie: SessionCookieOptions;
  maxBodyBytes: number;
  staticToken?: StaticToken | undefined;
  /** Browser origins besides BASE_URL's own that may call /api/mcp (MCP_ALLOWED_ORIGINS). */
  allowedOrigins?: readonly string[];
}

const LOOPBACK = ['localhost', '127.0.0.1', '[::1]'];
const CORS_HEADERS =
  'Authorization, Content-Type, Accept, Mcp-Protocol-Version, Mcp-Session-Id, Last-Event-ID, Idempotency-Key';

export const resourceMetadataUrl = (baseUrl: string) => `${baseUrl}/.well-known/oauth-protected-resource`;

export function mcpRoutes(o: McpRouteOptions): Router {
  const base = new URL(o.baseUrl);
  // Port-agnostic, as the SDK's middleware is; a loopback BASE_URL accepts every loopback spelling.
  const hostnames = LOOPBACK.includes(base.hostname) ? LOOPBACK : [base.hostname];
  const origins = new Set([base.origin, ...(o.allowedOrigins ?? [])]);
  // The scope a client should ask for when it has nothing better to go on: least privilege.
  const challenge = `Bearer resource_metadata="${resourceMetadataUrl(o.baseUrl)}", scope="${DEFAULT_OAUTH_SCOPES.join(' ')}"`;
  // Not strict: any JSON value parses, so valid JSON that is not a message is -32600, not -32700.
  const jsonBody = jsonBodyParser({
    limit: o.maxBodyBytes,
    strict: false,
    type: ['application/json', 'application/*+json'],
  });

  const originCheck: RequestHandler = (req, res, next) => {
    const origin = req.headers.origin;
    if (origin !== undefined && !origins.has(origin))
      return sendJsonRpcError(res, 403, {
        code: JSON_RPC.serverError,
        message: `Invalid Origin: ${origin}`,
        data: { code: 'request.cross_origin' },
      });
    if (origin !== undefined) {
      res.setHeader('Access-Control-Allow-Origin', origin);
      res.setHeader(
        'Access-Control-Expose-Headers',
        'WWW-Authenticate, Mcp-Session-Id, Mcp-Protocol-Version',
      );
    }
    res.vary('Origin');
    next();
  };

  const preflight: RequestHandler = (_req, res) => {
    res.setHeader('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
    res.setHeader('Access-Control-Allow-Headers', CORS_HEADERS);
    res.setHeader('Access-Control-Max-Age', '600');
    res.setHeader('Allow', 'GET, POST, OPTIONS');
    res.status(204).end();
  };

  const methodNotAllowed: RequestHandler = (req, res) =>
    sendJsonRpcError(
      res,
      405,
      {
        code: JSON_RPC.serverError,
        message: 'Method not allowed: this server answers POST only (no server-initiated stream)',
        data: { code: 'request.method_not_allowed', method: req.method },
      },
      { Allow: 'GET, POST, OPTIONS' },
    );

  const post: RequestHandler = async (req, res) => {
    const startedAt = performance.now();
    const auth = await resolveMcpPrincipal(
      { services: o.services, cookie: o.cookie, staticToken: o.staticToken },
      req,
    );
    if (!auth.ok) {
      const { error, bearerPresented } = auth;
      const params = bearerPresented
        ? `, error="invalid_token", error_description="${error.message.replace(/["\\]/g, '')}"`
        : '';
      return sendJsonRpcError(
        res,
        401,
        { code: JSON_RPC.unauthenticated, message: error.message, data: { code: error.code } },
        { 'WWW-Authenticate': challenge + params },
      );
    }
    // The body is read only for an authenticated caller.
    jsonBody(req, res, async (err?: unknown) => {
      if (err) return bodyError(res, err);
      const body: unknown = req.body;
      if (Array.isArray(body))
        return sendJsonRpcError(
          res,
          400,
          body.length > 0 && body.every(isJsonRpcMessage)
            ? {
                code: JSON_RPC.invalidRequest,
                message: 'Batch requests are not supported: send one JSON-RPC message per request',
                data: { code: 'request.batch_unsupported' },
              }
            : notJsonRpc,
        );
      // undefined: no body or another media type, which the transport refuses in its own words.
      if (body !== undefined && !isJsonRpcMessage(body)) return sendJsonRpcError(res, 400, notJsonRpc);
      try {
        const stepUp = {
          services: o.services,
          principal: auth.principal,
          resourceMetadata: resourceMetadataUrl(o.baseUrl),
          startedAt,
          requestId: typeof req.id === 'string' ? req.id : undefined,
          client: req.get('user-agent') || undefined,
          idempotencyKey: idempotencyKeyOf(req),
          logger: req.log,
        };
        if (await answerScopeChallenge(stepUp, body, res)) return;
        const server = await createMcpServer({
          services: o.services,
          principal: auth.principal,
          requestId: typeof req.id === 'string' ? req.id : undefined,
          client: req.get('user-agent') || undefined,
          startedAt,
          logger: req.log,
          method: typeof req.body?.method === 'string' ? req.body.method : undefined,
          idempotencyKey: req.headers['idempotency-key'],
        });
        const transport = new StreamableHTTPServerTransport({
          sessionIdGenerator: undefined,
          enableJsonResponse: true,
        });
        res.on('close', () => {
          void transport.close();
          void server.close();
        });
        await server.connect(transport);
        await transport.handleRequest(req, res, req.body);
      } catch (e) {
        req.log?.error({ err: e }, 'mcp request failed');
        if (!res.headersSent)
          sendJsonRpcError(res, 500, {
            code: -32603,
            message: 'Internal error',
            data: { code: 'server.internal' },
          });
      }
    });
  };

  const r = Router();
  r.route('/api/mcp')
    .all(hostHeaderValidation(hostnames), originCheck)
    .options(preflight)
    .post(post)
    .all(methodNotAllowed);
  return r;
}

const isJsonRpcMessage = (v: unknown) => JSONRPCMessageSchema.safeParse(v).success;

/** JSON-RPC 2.0 §5.1: valid JSON that is not a Request object (nor a response or notification). */
const notJsonRpc = {
  code: JSON_RPC.invalidRequest,
  message: 'Invalid Request: the body is JSON but not a JSON-RPC 2.0 message',
  data: { code: 'request.invalid_jsonrpc' as const },
};

function bodyError(res: Response, err: unknown) {
  const type = (err as { type?: string }).type;
  if (type === 'entity.too.large')
    return sendJsonRpcError(res, 413, {
      code: JSON_RPC.invalidRequest,
      message: 'The request body is too large',
      data: { code: 'request.too_large' },
    });
  if (type === BAD_BYTES_TYPE)
    return sendJsonRpcError(res, 400, {
      code: JSON_RPC.parseError,
      message: 'Parse error: the body holds NUL or bytes that are not UTF-8',
      data: { code: 'request.bad_bytes' },
    });
  if (type === 'entity.parse.failed')
    return sendJsonRpcError(res, 400, {
      code: JSON_RPC.parseError,
      message: 'Parse error: the body is not valid JSON',
      data: { code: 'request.malformed_json' },
    });
  return sendJsonRpcError(res, 400, {
    code: JSON_RPC.invalidRequest,
    message: 'The request body could not be read',
    data: { code: 'request.unreadable_body' },
  });
}
