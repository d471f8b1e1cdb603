// The secrets: every variable whose value grants access (keys, tokens, signing secrets, passphrases), kept
// apart from the settings so they are easy to find, review and keep out of logs. docs/configuration.md.
import { unsetWhenEmpty } from './fields.js';
import { z } from 'zod';
import { secretKeyBytes } from '../assistant/secret-key.js';

export const secretVariables = {
  // The passphrase of INSTANCE_KEY_FILE, the instance's signing key.
  INSTANCE_KEY_PASSPHRASE: z.string().optional(),
  // The static MCP token (docs/agent-access.md); its scopes are AIAGENT_MCP_SCOPES.
  AIAGENT_MCP_TOKEN: z.string().min(32, 'AIAGENT_MCP_TOKEN must be at least 32 characters').optional(),
  // Payments (docs/payments.md#configuration): off unless both Stripe secrets are set.
  STRIPE_SECRET_KEY: unsetWhenEmpty(z.string().min(8).optional()),
  STRIPE_WEBHOOK_SECRET: unsetWhenEmpty(z.string().min(8).optional()),
  // The Connect endpoint's own signing secret, when Stripe's Connect webhook endpoint is a separate one.
  STRIPE_CONNECT_WEBHOOK_SECRET: unsetWhenEmpty(z.string().min(8).optional()),
  // GET /metrics (docs/operations.md#metrics): with a token it is the only way in; without, loopback
  // clients only.
  METRICS_TOKEN: z.string().min(16, 'METRICS_TOKEN must be at least 16 characters').optional(),
  // The assistant's language model's API key (docs/assistant.md#the-model).
  LLM_API_KEY: unsetWhenEmpty(z.string()),
  // The AES-256-GCM key of the account secrets: 32 bytes as base64, base64url or 64 hex digits. Unset:
  // a key file created in TRIBUTARY_DATA_DIR/keys (mode 0600). Never in the database.
  ASSISTANT_SECRET_KEY: z
    .string()
    .trim()
    .optional()
    .refine(
      (v) => v === undefined || secretKeyBytes(v) !== undefined,
      'ASSISTANT_SECRET_KEY: 32 bytes as base64, base64url or 64 hex digits',
    ),
};
