// Errors on /api/mcp that happen before the MCP server sees the message (auth, Host/Origin, size,
// batches) are still JSON-RPC error objects, with the HTTP status that says what went wrong and our
// stable code in `error.data.code`.
import type { Response } from 'express';
import type { ErrorCode } from '../http/index.js';

/** JSON-RPC error codes we use beside the SDK's own (-32700 parse, -32600 invalid request, -32601, -32602). */
export const JSON_RPC = {
  parseError: -32700,
  invalidRequest: -32600,
  /** Transport-level refusals (Host, Origin, method), as the SDK itself answers them. */
  serverError: -32000,
  unauthenticated: -32001,
  /** An OAuth access token without a scope the call needs: the step-up challenge (scope-challenge.ts). */
  forbidden: -32003,
} as const;

export function sendJsonRpcError(
  res: Response,
  status: number,
  error: { code: number; message: string; data: { code: ErrorCode; [k: string]: unknown } },
  headers: Record<string, string> = {},
) {
  for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
  res.status(status).json({ jsonrpc: '2.0', error, id: null });
}
