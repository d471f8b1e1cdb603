// PostgreSQL and Redis: where they are and how long a statement may take.
import { z } from 'zod';

export const databaseVariables = {
  DATABASE_URL: z.string().optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(2).max(200).default(20),
  // A database host that drops packets would otherwise hold each request until the OS gives up on TCP.
  DATABASE_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  // Each statement's bound (PostgreSQL's statement_timeout): a request waiting on a held lock answers
  // 503 after it rather than for as long as the lock is held. The operator's long commands (backup,
  // restore, projections rebuild, migrate, log verify) and migrations have their own, longer one.
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(15_000),
  DATABASE_LONG_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(0).max(86_400_000).default(3_600_000),
  // Hot standbys that serve the reads which tolerate lag (docs/operations.md#read-replicas): the feed,
  // public documents, published sites. Comma separated; each one's replay is checked every
  // DATABASE_REPLICA_CHECK_MS against the primary's WAL, and one further behind than
  // DATABASE_REPLICA_MAX_LAG_MS, or unreachable, is skipped until it catches up (the primary answers).
  DATABASE_READ_URL: z
    .string()
    .optional()
    .transform((v) =>
      v?.trim()
        ? v
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean)
        : [],
    )
    .refine(
      (v) => v.every((s) => /^postgres(?:ql)?:\/\/\S+$/.test(s)),
      'DATABASE_READ_URL: postgres:// URLs, comma separated',
    ),
  DATABASE_REPLICA_MAX_LAG_MS: z.coerce.number().int().min(0).max(3_600_000).default(5_000),
  DATABASE_REPLICA_CHECK_MS: z.coerce.number().int().min(100).max(60_000).default(1_000),
  REDIS_URL: z.string().optional(),
};
