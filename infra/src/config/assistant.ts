// The assistant (docs/assistant.md): plans, chat turns, pictures, the model and the connected
// account; the model's API key and the account secrets' key are in secrets.ts.
import { unsetWhenEmpty, type ConfigCheck } from './fields.js';
import { httpUrlSchema } from '@tributary/domain';
import { ATTACHMENT_MAX_BYTES_CEILING } from '@tributary/services';
import { z } from 'zod';
import { DEFAULT_ATTACHMENT_LIMITS } from '../assistant/attachment-processor.js';

export const assistantVariables = {
  // The assistant's plans (docs/assistant.md#limits): a confirm runs its steps within one request, with
  // a longer allowance than an ordinary request; a proposed plan waits this long for its confirmation.
  ASSISTANT_CONFIRM_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(3_600_000).default(120_000),
  ASSISTANT_PLAN_TTL_SECONDS: z.coerce.number().int().min(10).max(604_800).default(900),
  // The assistant's chat turn (docs/assistant.md#limits): the thread's earlier messages sent to the
  // model (newest first, by count and by characters), model calls in one turn, and how long one chat
  // request may take as a whole (the model's answers and the reads it runs; the connection of a
  // streamed reply closes then too).
  ASSISTANT_HISTORY_MESSAGES: z.coerce.number().int().min(0).max(200).default(20),
  ASSISTANT_HISTORY_CHARS: z.coerce.number().int().min(0).max(1_000_000).default(24_000),
  ASSISTANT_TOOL_ITERATIONS: z.coerce.number().int().min(1).max(20).default(6),
  ASSISTANT_CHAT_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(3_600_000).default(180_000),
  // Pictures handed to the assistant (docs/assistant.md#attachments): bytes of one upload, pixels of
  // its first frame.
  ASSISTANT_ATTACHMENT_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(ATTACHMENT_MAX_BYTES_CEILING)
    .default(DEFAULT_ATTACHMENT_LIMITS.maxBytes),
  ASSISTANT_ATTACHMENT_MAX_PIXELS: z.coerce
    .number()
    .int()
    .min(1)
    .max(64_000_000)
    .default(DEFAULT_ATTACHMENT_LIMITS.maxPixels),
  // The assistant's language model (docs/assistant.md#the-model): an OpenAI-compatible API when
  // LLM_BASE_URL is set, else the built-in planner. LLM_TIMEOUT_MS bounds one whole answer.
  LLM_BASE_URL: unsetWhenEmpty(httpUrlSchema().transform((v) => v.replace(/\/+$/, ''))),
  LLM_MODEL: unsetWhenEmpty(z.string().trim().min(1).max(200)),
  LLM_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(60_000),
  LLM_ACCEPTS_IMAGES: z
    .enum(['true', 'false', '1', '0', 'yes', 'no'])
    .default('false')
    .transform((v) => v === 'true' || v === '1' || v === 'yes'),
  // The connected external-assistant account (docs/assistant.md#connected-account): an OpenAI-compatible
  // provider's OAuth endpoints (device authorization RFC 8628, token, revocation RFC 7009) and models
  // endpoint, the public client id registered there, and the scopes asked for. Off unless the device
  // URL, token URL and client id are all set.
  ASSISTANT_PROVIDER_NAME: z.string().trim().min(1).max(200).optional(),
  ASSISTANT_PROVIDER_DEVICE_URL: httpUrlSchema().optional(),
  ASSISTANT_PROVIDER_TOKEN_URL: httpUrlSchema().optional(),
  ASSISTANT_PROVIDER_REVOKE_URL: httpUrlSchema().optional(),
  ASSISTANT_PROVIDER_MODELS_URL: httpUrlSchema().optional(),
  // The provider's OpenAI-compatible API base URL (`…/v1`): a turn whose chosen model the connected
  // account offers is answered there, with the account's access token as the bearer.
  ASSISTANT_PROVIDER_API_URL: httpUrlSchema().optional(),
  ASSISTANT_PROVIDER_CLIENT_ID: z.string().trim().min(1).max(2000).optional(),
  ASSISTANT_PROVIDER_SCOPE: z.string().trim().max(2000).optional(),
  // An access token expiring within this many seconds is refreshed before it is used.
  ASSISTANT_REFRESH_MARGIN_SECONDS: z.coerce.number().int().min(0).max(3600).default(120),
};

export const assistantChecks: ConfigCheck<{
  LLM_BASE_URL?: string | undefined;
  LLM_MODEL?: string | undefined;
  ASSISTANT_PROVIDER_DEVICE_URL?: string | undefined;
  ASSISTANT_PROVIDER_TOKEN_URL?: string | undefined;
  ASSISTANT_PROVIDER_CLIENT_ID?: string | undefined;
  ASSISTANT_PROVIDER_REVOKE_URL?: string | undefined;
  ASSISTANT_PROVIDER_MODELS_URL?: string | undefined;
  ASSISTANT_PROVIDER_API_URL?: string | undefined;
}>[] = [
  {
    holds: (c) => !c.LLM_BASE_URL || !!c.LLM_MODEL,
    path: 'LLM_MODEL',
    message: 'LLM_BASE_URL needs LLM_MODEL (the model to ask)',
  },
  {
    holds: (c) => {
      const set = [
        c.ASSISTANT_PROVIDER_DEVICE_URL,
        c.ASSISTANT_PROVIDER_TOKEN_URL,
        c.ASSISTANT_PROVIDER_CLIENT_ID,
      ];
      const any =
        set.some((v) => v !== undefined) ||
        c.ASSISTANT_PROVIDER_REVOKE_URL !== undefined ||
        c.ASSISTANT_PROVIDER_MODELS_URL !== undefined ||
        c.ASSISTANT_PROVIDER_API_URL !== undefined;
      return !any || set.every((v) => v !== undefined);
    },
    path: 'ASSISTANT_PROVIDER_DEVICE_URL',
    message:
      'an external assistant provider needs ASSISTANT_PROVIDER_DEVICE_URL, ASSISTANT_PROVIDER_TOKEN_URL and ASSISTANT_PROVIDER_CLIENT_ID together',
  },
];
