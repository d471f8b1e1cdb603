// Transactional mail (docs/mail.md).
import { unsetWhenEmpty } from './fields.js';
import { z } from 'zod';

export const mailVariables = {
  // With no SMTP_URL every message is logged instead of sent.
  SMTP_URL: unsetWhenEmpty(
    z.string().regex(/^smtps?:\/\//i, 'SMTP_URL: smtp://[user:pass@]host[:port] or smtps://…'),
  ),
  MAIL_FROM: z.string().trim().min(3).max(320).optional(),
  MAIL_RATE_PER_PEER_PER_HOUR: z.coerce.number().int().min(1).max(1_000_000).default(200),
  MAIL_RATE_PER_RECIPIENT_PER_HOUR: z.coerce.number().int().min(1).max(10_000).default(10),
  MAIL_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(8),
  MAIL_RETRY_BASE_MS: z.coerce.number().int().min(10).max(3_600_000).default(30_000),
  MAIL_POLL_MS: z.coerce.number().int().min(10).max(600_000).default(1000),
  MAIL_TOKEN_SECONDS: z.coerce.number().int().min(60).max(604_800).default(3600),
  // After a mail about a form's submissions, the next ones wait this long and go together (docs/builder.md#submission-mail).
  SUBMISSION_MAIL_QUIET_SECONDS: z.coerce.number().int().min(0).max(86_400).default(600),
};
