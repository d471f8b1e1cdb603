// Accounts: sessions, password hashing and the sign-in budget.
import { z } from 'zod';

export const accountsVariables = {
  SESSION_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .default(60 * 60 * 24 * 14),
  BCRYPT_ROUNDS: z.coerce.number().int().min(4).max(15).default(12),
  SIGN_IN_MAX_FAILURES: z.coerce.number().int().min(1).default(5),
  SIGN_IN_WINDOW_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .default(15 * 60),
  SIGN_IN_BLOCK_SECONDS: z.coerce.number().int().min(1).default(30),
};
