// The process: where it listens, its HTTP limits, its data folder, logs, metrics and
// signing (docs/operations.md).
import { rateLimit, trustProxy, type ConfigCheck } from './fields.js';
import { httpUrlSchema } from '@tributary/domain';
import { z } from 'zod';
import { DEFAULT_DATA_DIR, DEFAULT_HOST, DEFAULT_PORT } from './defaults.js';

/** What one `tributary start` process runs (docs/operations.md#process-roles). */
export const PROCESS_ROLES = ['all', 'api', 'worker'] as const;
export type ProcessRole = (typeof PROCESS_ROLES)[number];

export const serverVariables = {
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(DEFAULT_PORT),
  // Loopback unless a deployment says otherwise: beyond it, the first account needs the setup code.
  HOST: z.string().min(1).default(DEFAULT_HOST),
  // Slow clients: all headers within HTTP_HEADERS_TIMEOUT_MS of the connection or of the previous
  // request; the whole request (headers and body) within HTTP_REQUEST_TIMEOUT_MS; an idle kept-alive
  // connection closed after HTTP_KEEP_ALIVE_TIMEOUT_MS. Responses (a long feed page) are not bounded.
  HTTP_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(20_000),
  HTTP_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(60_000),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(5_000),
  BASE_URL: httpUrlSchema().optional(),
  TRIBUTARY_DATA_DIR: z.string().default(DEFAULT_DATA_DIR),
  // `tributary start` writes where it listens there once ready (docs/cli.md): for PORT=0.
  TRIBUTARY_ADDRESS_FILE: z.string().min(1).optional(),
  // What this process runs (docs/operations.md#process-roles): HTTP, the background loops, or both.
  // Not INSTANCE_ROLE, which is what the instance is in the federation.
  PROCESS_ROLE: z
    .enum(PROCESS_ROLES, { message: `must be one of ${PROCESS_ROLES.join(', ')}` })
    .default('all'),
  INSTANCE_KEY_FILE: z.string().optional(),
  MAX_BODY_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(1024 * 1024),
  // Test-only fault injection (honoured only when NODE_ENV=test), comma separated.
  TRIBUTARY_FAILPOINTS: z
    .string()
    .optional()
    .transform((v) => (v?.trim() ? v.split(',').map((f) => f.trim()) : [])),
  SIGNING_LIBRARY: z.enum(['auto', 'libsodium', 'node-crypto']).default('auto'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  // `auto`: words on a terminal, JSON lines otherwise (a file, a container's log collector).
  LOG_FORMAT: z.enum(['auto', 'json', 'pretty']).default('auto'),
  TRUST_PROXY: trustProxy,
  // GET /metrics (docs/operations.md#metrics), whose token is in secrets.ts: METRICS_PORT moves it to a
  // listener of its own (then it is not on PORT at all).
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  METRICS_HOST: z.string().min(1).optional(),
  // Per client address (docs/operations.md#rate-limits): the discovery documents.
  RATE_LIMIT_DISCOVERY: rateLimit('RATE_LIMIT_DISCOVERY', '300/min'),
};

export const serverChecks: ConfigCheck<{
  HTTP_HEADERS_TIMEOUT_MS: number;
  HTTP_REQUEST_TIMEOUT_MS: number;
  PORT: number;
  METRICS_PORT?: number | undefined;
}>[] = [
  {
    holds: (c) => c.HTTP_HEADERS_TIMEOUT_MS <= c.HTTP_REQUEST_TIMEOUT_MS,
    path: 'HTTP_HEADERS_TIMEOUT_MS',
    message: 'must be at most HTTP_REQUEST_TIMEOUT_MS (the headers are part of the request)',
  },
  {
    holds: (c) => c.METRICS_PORT === undefined || c.METRICS_PORT === 0 || c.METRICS_PORT !== c.PORT,
    path: 'METRICS_PORT',
    message: 'METRICS_PORT must differ from PORT (unset it to answer /metrics on PORT)',
  },
];
