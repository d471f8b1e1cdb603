// The streams of this area and the fold each one uses.
import type { StreamAggregate } from '../shared/aggregate.js';
import { idempotencyStreams } from './idempotency.js';
import { mcpTokenStreams, provenanceStreams } from './mcp-token.js';

export const tokensAggregates: readonly StreamAggregate[] = [
  mcpTokenStreams,
  provenanceStreams,
  idempotencyStreams,
];
