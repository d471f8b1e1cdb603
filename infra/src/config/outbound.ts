// Every outbound HTTP call (docs/operations.md#outbound-http).
import { parseAddressList } from '@tributary/adapters';
import { z } from 'zod';

export const outboundVariables = {
  // Which non-public addresses it may
  // reach (unset: none in production; loopback and private ranges in development and test), and its limits.
  OUTBOUND_ALLOWED_ADDRESSES: z
    .string()
    .optional()
    .superRefine((v, ctx) => {
      try {
        if (v !== undefined) parseAddressList(v);
      } catch (e) {
        ctx.addIssue({ code: 'custom', message: (e as Error).message });
      }
    }),
  OUTBOUND_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5000),
  OUTBOUND_TIMEOUT_MS: z.coerce.number().int().min(100).max(300_000).default(30_000),
  OUTBOUND_MAX_RESPONSE_BYTES: z.coerce
    .number()
    .int()
    .min(64 * 1024)
    .max(256 * 1024 * 1024)
    .default(16 * 1024 * 1024),
};
