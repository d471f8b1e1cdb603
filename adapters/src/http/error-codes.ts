// Codes the surfaces answer themselves, never as a domain error: HTTP and JSON-RPC refusals of the
// request itself, and the server's own state. With the domain's lists (domain/src/registries/error-codes.ts)
// they make up every code a client can see; docs/api.md's table is generated from both
// (`npm run docs:errors`).
import { DOMAIN_ERROR_CODE_LISTS, type DomainErrorCode, type ErrorKind } from '@tributary/domain';

interface SurfaceErrorCodeEntry {
  /** The HTTP status it is answered with. */
  readonly status: string;
  readonly description: string;
}

export const SURFACE_ERROR_CODES = {
  'request.timeout': {
    status: '408',
    description:
      'headers or body not received within the limits (then the connection closes); see [operations.md](operations.md#limits-on-slow-clients)',
  },
  'request.headers_too_large': { status: '431', description: "request headers over Node's 16 KiB limit" },
  'request.malformed': { status: '400', description: 'bytes that are not an HTTP request' },
  'request.bad_bytes': {
    status: '400',
    description:
      'a path, query or body that holds NUL or is not UTF-8 (percent-decoded); see [api.md](api.md#bad-bytes)',
  },
  'request.unsupported_media_type': { status: '415', description: 'a write without `application/json`' },
  'request.unsupported_encoding': {
    status: '415',
    description: 'a body in an encoding or charset we do not read',
  },
  'request.cross_origin': {
    status: '403',
    description: 'a cookie write (or an MCP request) from another origin',
  },
  'request.rate_limited': {
    status: '429',
    description:
      'too many requests from this address to a public document or the feed, or too many of its Stripe webhook deliveries refused',
  },
  'request.method_not_allowed': {
    status: '405',
    description: '`/api/mcp` asked with a method it does not answer',
  },
  'request.batch_unsupported': { status: '400', description: '`/api/mcp`: a JSON-RPC batch (not supported)' },
  'request.invalid_jsonrpc': { status: '400', description: '`/api/mcp`: the body is not a JSON-RPC message' },
  'request.unreadable_body': { status: '400', description: '`/api/mcp`: the body could not be read' },
  'route.not_found': { status: '404', description: 'no such route' },
  'route.method_not_allowed': {
    status: '405',
    description: 'the route does not answer that method; `Allow` lists those it does',
  },
  'tool.not_found': {
    status: '— (JSON-RPC error)',
    description: 'MCP `tools/call` of a tool that does not exist here (JSON-RPC -32602)',
  },
  'resource.not_found': {
    status: '— (JSON-RPC error)',
    description:
      'MCP `resources/read` of a URI that names no resource here, or a page the draft does not have (JSON-RPC -32002); `completion/complete` of an unknown resource template (-32602)',
  },
  'prompt.not_found': {
    status: '— (JSON-RPC error)',
    description:
      'MCP `prompts/get` or `completion/complete` of a prompt that does not exist here or that the caller is not offered (JSON-RPC -32602)',
  },
  'discovery.matrix_not_configured': {
    status: '404',
    description: '`/.well-known/matrix/*` when no Matrix homeserver is delegated from here',
  },
  'metrics.token_required': {
    status: '401',
    description:
      '`/metrics` without the `METRICS_TOKEN` bearer token; see [operations.md](operations.md#metrics)',
  },
  'metrics.local_only': {
    status: '403',
    description: '`/metrics` from a non-loopback client while `METRICS_TOKEN` is unset',
  },
  'server.not_ready': {
    status: '503',
    description: '`/readyz` while the database is unreachable or migrations pending',
  },
  'server.unhealthy': {
    status: '503',
    description: '`/healthz` while the embedded PostgreSQL is not running (it is being restarted)',
  },
  'service.unavailable': {
    status: '503',
    description:
      'the database cannot be reached just now, or a statement ran past `DATABASE_STATEMENT_TIMEOUT_MS`; `Retry-After: 5`, nothing was written (when a write may have been, the code is `log.outcome_unknown`)',
  },
} as const satisfies Record<string, SurfaceErrorCodeEntry>;

type SurfaceErrorCode = keyof typeof SURFACE_ERROR_CODES;

/** Every code a client can see: the domain's and the surfaces' own. */
export type ErrorCode = DomainErrorCode | SurfaceErrorCode;

/** The REST status of each error kind. */
export const STATUS_OF_KIND: Readonly<Record<ErrorKind, number>> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  unprocessable: 422,
  rate_limited: 429,
  unavailable: 503,
};

interface ErrorCodeRow {
  /** The list it is in: a domain area, `shared`, `edge`, or `surface`. */
  list: string;
  code: ErrorCode;
  /** REST status(es), or what the entry says instead (`—` for a code only reported). */
  status: string;
  description: string;
}

/** Every code of every list, in list order: what docs/api.md's table shows. */
export function errorCodeRows(): ErrorCodeRow[] {
  const rows: ErrorCodeRow[] = [];
  for (const [list, codes] of Object.entries(DOMAIN_ERROR_CODE_LISTS))
    for (const [code, entry] of Object.entries(codes) as [
      DomainErrorCode,
      (typeof codes)[keyof typeof codes],
    ][]) {
      const e = entry as { kinds: readonly ErrorKind[]; description: string; status?: string };
      const statuses = [...new Set(e.kinds.map((k) => STATUS_OF_KIND[k]))].sort((a, b) => a - b);
      rows.push({
        list,
        code,
        status: e.status ?? (statuses.length > 0 ? statuses.join(', ') : '—'),
        description: e.description,
      });
    }
  for (const [code, entry] of Object.entries(SURFACE_ERROR_CODES) as [
    SurfaceErrorCode,
    SurfaceErrorCodeEntry,
  ][])
    rows.push({ list: 'surface', code, status: entry.status, description: entry.description });
  return rows;
}
