// Federation sync and the feed (docs/federation.md#sync).
import { rateLimit, type ConfigCheck } from './fields.js';
import { z } from 'zod';

export const federationVariables = {
  // Federation sync (docs/federation.md#sync): on by default wherever peers are registered.
  FEDERATION_SYNC: z.enum(['on', 'off']).default('on'),
  FEDERATION_QUEUE: z.enum(['auto', 'bullmq', 'in-process']).default('auto'),
  FEDERATION_PULL_INTERVAL_SECONDS: z.coerce.number().int().min(1).default(60),
  FEDERATION_RETRY_BASE_MS: z.coerce.number().int().min(10).default(2000),
  FEDERATION_SWEEP_MS: z.coerce.number().int().min(10).default(1000),
  FEDERATION_SYNC_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
  // The feed, per client address (docs/operations.md#rate-limits).
  RATE_LIMIT_FEED: rateLimit('RATE_LIMIT_FEED', '600/min'),
  // The public status summaries, per client address (docs/operations.md#rate-limits).
  RATE_LIMIT_STATUS: rateLimit('RATE_LIMIT_STATUS', '120/min'),
};

export const federationChecks: ConfigCheck<{ FEDERATION_QUEUE: string; REDIS_URL?: string | undefined }>[] = [
  {
    holds: (c) => c.FEDERATION_QUEUE !== 'bullmq' || !!c.REDIS_URL,
    path: 'FEDERATION_QUEUE',
    message: 'FEDERATION_QUEUE=bullmq needs REDIS_URL',
  },
];
